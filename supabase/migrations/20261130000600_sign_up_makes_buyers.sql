-- Every sign-up makes a buyer. The account type in sign-up metadata (`user_type`, which any
-- client can send to /auth/v1/signup) is no longer read: a seller is made only by the app's
-- trusted code on /become-seller, which records when the seller terms were accepted, and an
-- administrator only by trusted code too. The rest of the function is as before (usernames
-- through unique_username, an avatar kept only when it is an acceptable image source).
create or replace function public.handle_new_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  meta jsonb := coalesce(new.raw_user_meta_data, '{}'::jsonb);
  wanted text;
  avatar text;
begin
  wanted := nullif(pg_catalog.btrim(meta ->> 'username'), '');
  if wanted is null then
    -- "first.last+tag" → "first_last_tag"; nothing usable (e.g. "-.-") → unique_username's "user".
    wanted := nullif(pg_catalog.btrim(
      pg_catalog.regexp_replace(pg_catalog.lower(coalesce(
        nullif(pg_catalog.split_part(coalesce(new.email, ''), '@', 1), ''),
        meta ->> 'full_name',
        meta ->> 'name',
        ''
      )), '[^a-z0-9_]+', '_', 'g'),
      '_'), '');
  end if;
  avatar := nullif(coalesce(meta ->> 'avatar_url', meta ->> 'picture'), '');
  if avatar is not null and not public.is_image_source(avatar) then
    avatar := null;
  end if;

  insert into public.users (id, email, username, first_name, last_name, profile_image_url, user_type, created_at, updated_at)
  values (
    new.id,
    new.email,
    public.unique_username(wanted),
    nullif(meta ->> 'given_name', ''),
    nullif(meta ->> 'family_name', ''),
    avatar,
    'buyer',
    coalesce(new.created_at, now()),
    coalesce(new.created_at, now())
  );
  insert into public.user_settings (user_id) values (new.id);
  return new;
end
$$;

revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
