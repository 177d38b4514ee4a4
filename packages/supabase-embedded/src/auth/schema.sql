-- Private tables of the embedded Auth service (sessions, refresh tokens, flow states, MFA,
-- the local outbox). Idempotent: runs on every start after bootstrap.sql. Apps never read these;
-- names follow GoTrue's where GoTrue has an equivalent.

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  aal text not null default 'aal1',
  amr jsonb not null default '[]'::jsonb,
  factor_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
-- As GoTrue: the User-Agent of the request that signed in (the session list of /profile).
alter table auth.sessions add column if not exists user_agent text;

create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid references auth.users (id) on delete cascade,
  auth_code uuid not null unique,
  code_challenge text,
  code_challenge_method text,
  provider_type text not null,
  authentication_method text not null,
  redirect_to text,
  provider_access_token text,
  provider_refresh_token text,
  provider_params jsonb,
  auth_code_issued_at timestamptz,
  created_at timestamptz not null default now()
);
-- The PKCE verifier and nonce of our own request to a real IdP (Google), checked at /callback.
alter table auth.flow_state add column if not exists idp_checks jsonb;
create index if not exists flow_state_user_id_idx on auth.flow_state (user_id);

create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null default 'totp',
  status text not null default 'unverified',
  secret text not null,
  last_challenged_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);

create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);

create table if not exists auth.local_outbox (
  id bigserial primary key,
  to_email text not null,
  subject text not null,
  email_type text not null,
  text_body text not null,
  html_body text not null,
  link text not null,
  token_hash text not null,
  otp text not null,
  redirect_to text,
  created_at timestamptz not null default now()
);

alter table auth.sessions owner to supabase_auth_admin;
alter table auth.refresh_tokens owner to supabase_auth_admin;
alter table auth.flow_state owner to supabase_auth_admin;
alter table auth.mfa_factors owner to supabase_auth_admin;
alter table auth.mfa_challenges owner to supabase_auth_admin;
alter table auth.local_outbox owner to supabase_auth_admin;

-- The server-backed mode's shared secrets (the JWT signing secret): every process on one
-- database signs and checks tokens with the same one. PGlite keeps it in the data directory.
create table if not exists auth.local_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- The rate limits' fixed windows (auth/rate-limit.ts): one row per key (limit kind and client
-- address, or a sign-in account), counted with one atomic upsert, so that every process on one
-- database shares the counts. Rows whose window has closed are pruned by the service.
create table if not exists auth.local_rate_limits (
  key text primary key,
  count integer not null,
  reset_at timestamptz not null
);
create index if not exists local_rate_limits_reset_at_idx on auth.local_rate_limits (reset_at);
alter table auth.local_rate_limits owner to supabase_auth_admin;

-- Every ended session (sign-out, password change, ban, deletion, refresh-token reuse, a second
-- factor ending aal1 sessions: each a delete, some by cascade) is announced on `app_changes` once
-- its transaction commits, so that the Data API and Storage of every process on the database
-- refuse its tokens at once and the app forgets the user's remembered session (ADR 022).
create or replace function auth.local_notify_session_ended()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform pg_notify('app_changes', json_build_object('topic', 'session', 'id', old.id, 'user_id', old.user_id)::text);
  return null;
end;
$$;
revoke execute on function auth.local_notify_session_ended() from public;
create or replace trigger sessions_notify_ended after delete on auth.sessions
  for each row execute function auth.local_notify_session_ended();

-- A ban ends the user's sessions however `banned_until` was set (the admin API, SQL, another
-- process): their deletion is announced as above, so the Data API and Storage stop serving the
-- banned user's tokens at once, and the grants refuse a banned user any new session.
create or replace function auth.local_end_sessions_of_banned_user()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.banned_until is not null and new.banned_until > now() then
    delete from auth.sessions where user_id = new.id;
  end if;
  return null;
end;
$$;
revoke execute on function auth.local_end_sessions_of_banned_user() from public;
create or replace trigger users_ban_ends_sessions after update of banned_until on auth.users
  for each row execute function auth.local_end_sessions_of_banned_user();
