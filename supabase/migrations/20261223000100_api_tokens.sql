-- Personal API tokens of sellers (ADR 074): the seller API (`/api/v1`) takes them as Bearer tokens.
--
--   api_tokens   a seller's (or an admin's) tokens: a name, scopes, an optional expiry. Only the
--                SHA-256 of the token is kept (`token_hash`, never readable through the Data API)
--                with its first characters to tell tokens apart (`token_prefix`). The owner lists,
--                adds (at most 20) and deletes (revokes) their own; the app's server resolves a
--                token with `api_token_owner` (service role), which also notes its last use.

create table public.api_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  name text not null constraint api_tokens_name_length check (char_length(name) between 1 and 60 and name = pg_catalog.btrim(name)),
  scopes text[] not null constraint api_tokens_scopes_check
    check (cardinality(scopes) between 1 and 2 and scopes <@ array['sales:read', 'listings:write']::text[]),
  token_hash text not null unique constraint api_tokens_token_hash_format check (token_hash ~ '^[0-9a-f]{64}$'),
  token_prefix text not null constraint api_tokens_token_prefix_format check (token_prefix ~ '^am_pat_[A-Za-z0-9_-]{4}$'),
  expires_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);
create index api_tokens_user_idx on public.api_tokens (user_id, created_at desc);

alter table public.api_tokens enable row level security;
create policy "api_tokens: owner reads own" on public.api_tokens
  for select to authenticated using (user_id = (select auth.uid()));
-- Sellers and admins only, for themselves, expiring in the future if at all.
create policy "api_tokens: sellers add their own" on public.api_tokens
  for insert to authenticated with check (
    user_id = (select auth.uid())
    and exists (select 1 from public.users u where u.id = (select auth.uid()) and u.user_type in ('seller', 'admin'))
    and (expires_at is null or expires_at > now())
  );
create policy "api_tokens: owner revokes own" on public.api_tokens
  for delete to authenticated using (user_id = (select auth.uid()));
select public.require_second_factor('public.api_tokens');
revoke all on public.api_tokens from anon, authenticated;
-- The hash is never read back through the Data API, not even by its owner.
grant select (id, user_id, name, scopes, token_prefix, expires_at, last_used_at, created_at) on public.api_tokens to authenticated;
grant insert (user_id, name, scopes, token_hash, token_prefix, expires_at) on public.api_tokens to authenticated;
grant delete on public.api_tokens to authenticated;
grant all on public.api_tokens to service_role;

-- At most 20 tokens a person (SQLSTATE PT409, HTTP 409).
create function public.api_tokens_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('api_tokens:' || new.user_id::text));
  if (select pg_catalog.count(*) from public.api_tokens t where t.user_id = new.user_id) >= 20 then
    raise exception 'At most 20 API tokens per person' using errcode = 'PT409';
  end if;
  new.last_used_at := null;
  new.created_at := now();
  return new;
end
$$;
revoke execute on function public.api_tokens_limit() from public, anon, authenticated;
create trigger api_tokens_limit before insert on public.api_tokens
  for each row execute function public.api_tokens_limit();

-- The owner of a live token (not expired; its owner a seller or an admin, not banned), by the
-- token's hash; notes its use at most once a minute. Service role only.
create function public.api_token_owner(hash text)
returns table (token_id uuid, user_id uuid, scopes text[], user_type text)
language sql
volatile
set search_path = ''
as $$
  with found as (
    select t.id, t.user_id, t.scopes, u.user_type, t.last_used_at
    from public.api_tokens t
    join public.users u on u.id = t.user_id
    where t.token_hash = hash
      and (t.expires_at is null or t.expires_at > now())
      and u.banned_at is null
  ), touched as (
    update public.api_tokens t set last_used_at = now()
    from found
    where t.id = found.id and (found.last_used_at is null or found.last_used_at < now() - interval '1 minute')
  )
  select found.id, found.user_id, found.scopes, found.user_type from found;
$$;
revoke execute on function public.api_token_owner(text) from public, anon, authenticated;
grant execute on function public.api_token_owner(text) to service_role;
