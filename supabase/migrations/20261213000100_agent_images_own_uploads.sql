-- An agent's pictures are the seller's own uploads (ADR 066). A thumbnail or screenshot a seller
-- writes through the Data API must be the same-site path of an upload in the agent's own folder of
-- the agent-images bucket, as the listing form stores it:
--   /storage/v1/object/public/agent-images/<seller id>/<agent id>/<uuid>.<jpg|png|gif|webp>
-- A URL of another site would be a tracking pixel on every card and page that shows the agent
-- (the same rule as a profile picture, public.is_own_avatar). A picture the agent already has
-- stays (the demo's artwork under /thumbnails/, a hosted project's earlier full URLs); only a
-- new one is checked. The service role and the database's owner (seed, migrations) are trusted.
create function public.is_own_agent_image(value text, seller uuid, agent uuid)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.char_length(value) <= 200
    and value ~ ('^/storage/v1/object/public/agent-images/' || seller::text || '/' || agent::text
                 || '/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|gif|webp)$')
$$;

create function public.agents_images_own_uploads()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  kept text[] := case when tg_op = 'UPDATE'
                   then pg_catalog.array_append(coalesce(old.images, '{}'), old.thumbnail_url)
                   else '{}' end;
  picture text;
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  foreach picture in array pg_catalog.array_append(coalesce(new.images, '{}'), new.thumbnail_url) loop
    if picture is not null and not (picture = any (kept))
       and not public.is_own_agent_image(picture, new.seller_id, new.id) then
      raise exception 'An agent''s pictures are uploads of its own'
        using errcode = '23514', constraint = 'agents_images_own_uploads';
    end if;
  end loop;
  return new;
end
$$;
revoke execute on function public.agents_images_own_uploads() from public, anon, authenticated;

create trigger agents_images_own_uploads before insert or update of thumbnail_url, images on public.agents
  for each row execute function public.agents_images_own_uploads();
