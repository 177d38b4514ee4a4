-- Reserved usernames: names a visitor would read as the platform itself speaking (admin,
-- support, billing, …) are not for accounts to take, nor their look-alikes. Sign-up turns such a
-- wanted name into another one (unique_username adds a suffix, as for a taken name), the profile
-- and set-up forms say it is not available, and a trigger refuses a change to one on any path.
-- Accounts that already have such a name keep it: only a new or changed username is checked.

create or replace function public.is_reserved_username(name text)
returns boolean
language sql
immutable
strict
parallel safe
set search_path = ''
as $$
  select exists (
    select 1
    from pg_catalog.unnest(array[
      'admin', 'administrator', 'root', 'system', 'sysadmin', 'superuser', 'owner', 'staff', 'team',
      'moderator', 'mod', 'support', 'help', 'helpdesk', 'security', 'billing', 'payments',
      'official', 'marketplace', 'api', 'www', 'mail', 'email', 'noreply', 'no_reply', 'postmaster',
      'hostmaster', 'webmaster', 'abuse', 'info', 'contact', 'legal', 'privacy', 'terms', 'null',
      'undefined', 'anonymous', 'service_role', 'authenticated', 'supabase'
    ]) as reserved(word)
    where pg_catalog.lower(pg_catalog.btrim(name)) = reserved.word
       or public.username_skeleton(pg_catalog.btrim(name)) in (
            public.username_skeleton(reserved.word),
            public.username_skeleton(pg_catalog.upper(reserved.word))
          )
  )
$$;

-- As before, and a reserved name or its look-alike is never available.
create or replace function public.is_username_available(name text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(pg_catalog.btrim(name) ~ '^[A-Za-z0-9_]{3,30}$', false)
    and not public.is_reserved_username(name)
    and not exists (
      select 1 from public.users u
      where (
          pg_catalog.lower(u.username) = pg_catalog.lower(pg_catalog.btrim(name))
          or public.username_skeleton(u.username) = public.username_skeleton(pg_catalog.btrim(name))
        )
        and u.id is distinct from auth.uid()
    )
$$;

-- As before, and a reserved name counts as taken (so "admin" becomes "admin_1").
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
  while public.is_reserved_username(candidate) or exists (
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

create or replace function public.refuse_reserved_username()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (tg_op = 'INSERT' or new.username is distinct from old.username)
     and public.is_reserved_username(new.username) then
    raise exception 'The username "%" is reserved', new.username
      using errcode = 'check_violation', constraint = 'users_username_reserved';
  end if;
  return new;
end
$$;

create trigger users_username_reserved
  before insert or update of username on public.users
  for each row execute function public.refuse_reserved_username();

revoke execute on function public.unique_username(text) from public, anon, authenticated;
revoke execute on function public.refuse_reserved_username() from public, anon, authenticated;
grant execute on function public.is_reserved_username(text) to anon, authenticated, service_role;
