-- Listing agents: sellers upload and edit their agents, with images
-- in a public Storage bucket and packages as versions (public.agent_versions, migration
-- 20261125000100). This migration adds:
--   * the public bucket 'agent-images' (thumbnails and gallery images, 2 MB, four image types);
--   * agent_stats.last_version_at, kept by a trigger on agent_versions, and the same column at
--     the end of agents_with_stats (the cards' "Updated 3 days ago");
--   * public.agent_changelog(agent_id): version, release notes and date of every version, for
--     whoever may see the agent (the version rows themselves stay readable only by buyers,
--     the seller and admins: they hold the file paths).

-- ---------------------------------------------------------------------------------------------
-- Images: public bucket. Objects are written only by the app's server (service role) after it
-- checked the seller owns the agent, at <seller_id>/<agent_id>/<random>.<ext>; no storage.objects
-- policy lets an API role write. Anyone reads them through /storage/v1/object/public/agent-images/.
-- ---------------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('agent-images', 'agent-images', true, 2097152, array['image/jpeg', 'image/png', 'image/gif', 'image/webp'])
on conflict (id) do nothing;

-- ---------------------------------------------------------------------------------------------
-- When an agent last shipped a version: in agent_stats (readable by everyone, written only by
-- triggers), because agent_versions itself is not readable by visitors.
-- ---------------------------------------------------------------------------------------------
alter table public.agent_stats add column last_version_at timestamptz;

update public.agent_stats s
set last_version_at = v.last_at
from (select agent_id, max(created_at) as last_at from public.agent_versions group by agent_id) v
where v.agent_id = s.agent_id;

create or replace function public.agent_stats_on_version_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  target uuid := case when tg_op = 'DELETE' then old.agent_id else new.agent_id end;
begin
  update public.agent_stats s
  set last_version_at = (select max(v.created_at) from public.agent_versions v where v.agent_id = target)
  where s.agent_id = target;
  return null;
end
$$;
revoke execute on function public.agent_stats_on_version_change() from public, anon, authenticated;

create trigger agent_versions_refresh_stats after insert or delete or update of created_at on public.agent_versions
  for each row execute function public.agent_stats_on_version_change();

-- Same columns, names and types as before (migration 20261122000400), last_version_at appended:
-- catalogue_agents (setof agents_with_stats, `select s.*`) returns it too.
create or replace view public.agents_with_stats with (security_invoker = true) as
select
  a.id,
  a.name,
  a.description,
  a.price,
  a.category,
  a.thumbnail_url,
  a.images,
  a.features,
  a.seller_id,
  a.status,
  a.created_at,
  a.updated_at,
  p.username as seller_username,
  p.profile_image_url as seller_avatar,
  s.avg_rating,
  s.review_count,
  s.purchase_count,
  s.last_version_at
from public.agents a
join public.agent_stats s on s.agent_id = a.id
left join public.public_profiles p on p.id = a.seller_id;

-- ---------------------------------------------------------------------------------------------
-- The changelog of an agent: not secret (no file paths), shown on the agent page to everyone who
-- may see the agent (public.can_view_agent, the agents' read rule). Newest first.
-- ---------------------------------------------------------------------------------------------
create or replace function public.agent_changelog(target_agent_id uuid)
returns table (version text, release_notes text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select v.version, v.release_notes, v.created_at
  from public.agent_versions v
  join public.agents a on a.id = v.agent_id
  where v.agent_id = target_agent_id
    and public.can_view_agent(a.status, a.seller_id, a.id)
  order by v.created_at desc, v.version desc
$$;
revoke execute on function public.agent_changelog(uuid) from public;
grant execute on function public.agent_changelog(uuid) to anon, authenticated, service_role;
