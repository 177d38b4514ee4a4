-- Identity rules. See docs/security/identity-rules.md and
-- docs/decisions/010-usernames-and-look-alikes.md.
--   * usernames: 3–30 ASCII letters, digits and underscores; unique case-insensitively AND by
--     "skeleton" (ASCII look-alikes I/l/1, O/0, rn/m, vv/w, runs of underscores count as equal);
--   * website: empty or an http(s) URL; image columns: an http(s) URL or a site-relative path;
--   * no table in public is writable by anon (newsletter sign-ups go through trusted server code);
--   * a signed-in user creates at most 20 agents per request.
-- Existing rows that break a new rule are repaired first, deterministically, so this migration
-- never fails on an existing data directory. Plain Postgres: runs unchanged on hosted Supabase.

-- ---------------------------------------------------------------------------------------------
-- Helper functions (IMMUTABLE: used by CHECK constraints and an index)
-- ---------------------------------------------------------------------------------------------

-- What a username looks like, for look-alike detection: capital I and the digit 1 read as l,
-- the digit 0 as o (before lowercasing, so a lowercase i — dotted — stays i); then lowercase;
-- rn reads as m, vv as w; a run of underscores as one.
create or replace function public.username_skeleton(name text)
returns text
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.regexp_replace(
    pg_catalog.replace(pg_catalog.replace(pg_catalog.lower(pg_catalog.translate(name, 'I10', 'llo')), 'rn', 'm'), 'vv', 'w'),
    '_+', '_', 'g'
  )
$$;

-- An absolute http:// or https:// URL with a host and no whitespace (scheme case-insensitive).
create or replace function public.is_http_url(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select pg_catalog.char_length(value) <= 2048 and value ~* '^https?://[^\s/$.?#][^\s]*$'
$$;

-- Where an <img> may load from: an http(s) URL or a path on this site ("/thumbnails/x.svg").
-- Refuses javascript:, data:, protocol-relative //host and /\host (browsers read it as //host).
create or replace function public.is_image_source(value text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select public.is_http_url(value)
    or (pg_catalog.char_length(value) <= 2048 and value ~ '^/[^/\\\s][^\s]*$')
$$;

create or replace function public.are_image_sources(value text[])
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select coalesce(pg_catalog.bool_and(u is not null and public.is_image_source(u)), true)
  from pg_catalog.unnest(value) as u
$$;

-- ---------------------------------------------------------------------------------------------
-- Usernames
-- ---------------------------------------------------------------------------------------------

-- Turns a wanted name into a free, valid username: characters outside [A-Za-z0-9_] become "_"
-- (then surrounding "_" are dropped), "user" when nothing is left, padded with 0 to 3, cut to
-- 30; on a case-insensitive or look-alike collision a suffix _1, _2, … is added.
create or replace function public.unique_username(wanted text)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  raw text := coalesce(wanted, '');
  base text := pg_catalog.regexp_replace(raw, '[^A-Za-z0-9_]+', '_', 'g');
  candidate text;
  n integer := 0;
begin
  if base <> raw then
    base := pg_catalog.btrim(base, '_');
  end if;
  if base = '' then
    base := 'user';
  end if;
  base := pg_catalog.left(pg_catalog.rpad(base, greatest(pg_catalog.char_length(base), 3), '0'), 30);
  candidate := base;
  while exists (
    select 1 from public.users
    where pg_catalog.lower(username) = pg_catalog.lower(candidate)
       or public.username_skeleton(username) = public.username_skeleton(candidate)
  ) loop
    n := n + 1;
    candidate := pg_catalog.left(base, 30 - pg_catalog.char_length(n::text) - 1) || '_' || n::text;
  end loop;
  return candidate;
end
$$;

-- Repair existing rows, oldest account first: an invalid username, or a valid one whose
-- look-alike an older account already has, is replaced by unique_username(itself)
-- (e.g. "demo seller" → "demo_seller_1"). Set-based, so only the rows to repair are visited.
do $$
declare
  r record;
begin
  for r in
    select u.id, u.username
    from public.users u
    left join (
      select id, row_number() over (partition by public.username_skeleton(username) order by created_at, id) as n
      from public.users
      where username ~ '^[A-Za-z0-9_]{3,30}$'
    ) valid on valid.id = u.id
    where valid.id is null or valid.n > 1
    order by u.created_at, u.id
  loop
    update public.users set username = public.unique_username(r.username) where id = r.id;
  end loop;
end
$$;

alter table public.users drop constraint users_username_length;
alter table public.users add constraint users_username_format check (username ~ '^[A-Za-z0-9_]{3,30}$');
-- users_username_lower_key (unique lower(username)) stays: Ian and ian are one name.
create unique index users_username_skeleton_key on public.users (public.username_skeleton(username));

-- True when the name is a valid username and nobody else uses it or a look-alike of it.
-- The caller's own current username counts as available.
create or replace function public.is_username_available(name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.btrim(name) ~ '^[A-Za-z0-9_]{3,30}$', false)
    and not exists (
      select 1 from public.users u
      where (
          pg_catalog.lower(u.username) = pg_catalog.lower(pg_catalog.btrim(name))
          or public.username_skeleton(u.username) = public.username_skeleton(pg_catalog.btrim(name))
        )
        and u.id is distinct from auth.uid()
    )
$$;

-- ---------------------------------------------------------------------------------------------
-- Website and image URLs
-- ---------------------------------------------------------------------------------------------

update public.users set website = pg_catalog.btrim(website) where website <> pg_catalog.btrim(website);
update public.users set website = null where website <> '' and not public.is_http_url(website);
update public.users set profile_image_url = null
  where profile_image_url is not null and not public.is_image_source(profile_image_url);
update public.agents set thumbnail_url = null
  where thumbnail_url is not null and not public.is_image_source(thumbnail_url);
update public.agents
  set images = array(select u from pg_catalog.unnest(images) with ordinality as t(u, i)
                     where u is not null and public.is_image_source(u) order by i)
  where not public.are_image_sources(images);

alter table public.users add constraint users_website_http_url
  check (website is null or website = '' or public.is_http_url(website));
alter table public.users add constraint users_profile_image_url_source
  check (profile_image_url is null or public.is_image_source(profile_image_url));
alter table public.agents add constraint agents_thumbnail_url_source
  check (thumbnail_url is null or public.is_image_source(thumbnail_url));
alter table public.agents add constraint agents_images_sources check (public.are_image_sources(images));

-- Sign-up never fails on the rules above: the username goes through unique_username (which
-- always returns a valid, free name) and an avatar from Google metadata is kept only when it
-- is an acceptable image source.
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
    case when meta ->> 'user_type' in ('buyer', 'seller') then meta ->> 'user_type' else 'buyer' end,
    coalesce(new.created_at, now()),
    coalesce(new.created_at, now())
  );
  insert into public.user_settings (user_id) values (new.id);
  return new;
end
$$;

-- ---------------------------------------------------------------------------------------------
-- No anonymous writes
-- ---------------------------------------------------------------------------------------------

-- Newsletter sign-ups go through the app's action (validation, per-address rate limit) with
-- the service role. Nobody writes the table directly through the Data API.
drop policy "newsletter_subscribers: anyone subscribes" on public.newsletter_subscribers;
revoke insert, update, delete on public.newsletter_subscribers from anon, authenticated;

-- anon writes nothing in public, now or in tables added later (a table that really needs
-- anonymous writes must grant them explicitly and cap what one request can insert).
revoke insert, update, delete, truncate on all tables in schema public from anon;
alter default privileges in schema public revoke insert, update, delete, truncate on tables from anon;

-- ---------------------------------------------------------------------------------------------
-- Bounded batches for signed-in users: reviews, settings and packages are already bounded by
-- unique keys (one per agent and buyer, one per user, one per agent); agents were not.
-- SECURITY INVOKER so current_user is the API role. PT413 → HTTP 413.
-- ---------------------------------------------------------------------------------------------
create or replace function public.limit_agents_per_request()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (select count(*) from inserted) > 20 then
    raise exception 'At most 20 agents can be created in one request'
      using errcode = 'PT413', hint = 'Create the agents in smaller batches';
  end if;
  return null;
end
$$;

create trigger agents_limit_per_request after insert on public.agents
  referencing new table as inserted
  for each statement execute function public.limit_agents_per_request();

revoke execute on function public.limit_agents_per_request() from public, anon, authenticated;
revoke execute on function public.unique_username(text) from public, anon, authenticated;
revoke execute on function public.handle_new_auth_user() from public, anon, authenticated;
