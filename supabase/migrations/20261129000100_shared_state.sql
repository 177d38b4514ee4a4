-- State that several app processes on one database share (ADR 022).
--
--   * public.rate_limit_windows, counted through public.rate_limit_add / rate_limit_peek: the
--     app's own form limits (sign-in, sign-up, password reset, newsletter, wrong two-factor
--     codes). The app reaches them through the service-role client's `.rpc()`, so the count is
--     shared by every app server on the same database, on hosted Supabase too.
--   * Change notifications (pg_notify on the channel `app_changes`, JSON payloads) for what the
--     app caches in memory: `{"topic":"user","id":…}` when a profile row changes or goes (role,
--     ban, name, picture), `{"topic":"catalogue"}` when something the published catalogue shows
--     changes (agents, their stats — purchases and reviews move them —, categories, reviews,
--     replies, profile settings). The embedded backend's server-backed mode listens and tells the
--     app (`backend.onChange`); without a listener (hosted Supabase) a notification costs nothing
--     and the caches' short TTLs stay the bound. Auth's own `{"topic":"session"}` comes from
--     auth.sessions (packages/supabase-embedded/src/auth/schema.sql).

-- ---------------------------------------------------------------------------------------------
-- Form limits: one row per key (the limit's name and what it counts — a client address, an
-- email from an address, an account, a user —, SHA-256-hashed by the app: no address or email
-- is stored), in a fixed window that opens with the key's first attempt. Service role only.
-- ---------------------------------------------------------------------------------------------
create table public.rate_limit_windows (
  key text primary key constraint rate_limit_windows_key_length check (char_length(key) between 1 and 200),
  count integer not null,
  reset_at timestamptz not null
);
create index rate_limit_windows_reset_at_idx on public.rate_limit_windows (reset_at);

alter table public.rate_limit_windows enable row level security;
revoke all on public.rate_limit_windows from anon, authenticated;
select public.require_second_factor('public.rate_limit_windows');

-- Counts one attempt for `window_key` at the caller's time `at_time` (the app's clock, so that tests
-- can move it) and returns the key's window: a new one of `window_ms` when the last has closed.
-- One upsert: concurrent attempts from any server serialise on the key's row and none is lost.
-- Closed windows are deleted now and then (about one call in a hundred).
create function public.rate_limit_add(window_key text, window_ms integer, at_time timestamptz)
returns table (attempts integer, resets_at timestamptz)
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if random() < 0.01 then
    delete from public.rate_limit_windows w where w.reset_at <= at_time;
  end if;
  return query
    insert into public.rate_limit_windows as w (key, count, reset_at)
    values (window_key, 1, at_time + make_interval(secs => window_ms / 1000.0))
    on conflict (key) do update set
      count = case when w.reset_at <= at_time then 1 else w.count + 1 end,
      reset_at = case when w.reset_at <= at_time then excluded.reset_at else w.reset_at end
    returning w.count, w.reset_at;
end;
$$;

-- The key's open window at `at_time` (no row when none is open), without counting.
create function public.rate_limit_peek(window_key text, at_time timestamptz)
returns table (attempts integer, resets_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select w.count, w.reset_at from public.rate_limit_windows w where w.key = window_key and w.reset_at > at_time;
$$;

revoke execute on function public.rate_limit_add(text, integer, timestamptz) from public, anon, authenticated;
revoke execute on function public.rate_limit_peek(text, timestamptz) from public, anon, authenticated;
grant execute on function public.rate_limit_add(text, integer, timestamptz) to service_role;
grant execute on function public.rate_limit_peek(text, timestamptz) to service_role;

-- ---------------------------------------------------------------------------------------------
-- Change notifications. NOTIFY is transactional: listeners hear of a change once it commits, and
-- identical payloads of one transaction arrive once (one `catalogue` per statement at most).
-- ---------------------------------------------------------------------------------------------
create function public.notify_catalogue_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('app_changes', '{"topic":"catalogue"}');
  return null;
end;
$$;

create function public.notify_user_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  -- `old` exists for an update and a delete alike, and a profile's id never changes.
  perform pg_notify('app_changes', json_build_object('topic', 'user', 'id', old.id)::text);
  return null;
end;
$$;

revoke execute on function public.notify_catalogue_change() from public, anon, authenticated;
revoke execute on function public.notify_user_change() from public, anon, authenticated;

create trigger users_notify_change after update or delete on public.users
  for each row execute function public.notify_user_change();

-- What the published catalogue shows (cards, counts, storefronts) is read from these tables.
do $$
declare
  t text;
begin
  foreach t in array array['agents', 'agent_stats', 'categories', 'reviews', 'review_replies', 'users', 'user_settings']
  loop
    execute format(
      'create trigger %I after insert or update or delete on public.%I '
      'for each statement execute function public.notify_catalogue_change()',
      t || '_notify_catalogue', t
    );
  end loop;
end;
$$;
