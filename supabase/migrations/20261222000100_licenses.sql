-- Licence keys (ADR 073): every completed purchase has a licence that the buyer's copy of the
-- agent can check with the public verify endpoint (`POST /api/v1/licenses/verify`).
--
--   licenses               one per purchase, made by a trigger when the purchase completes. The
--                          database keeps only the key's public half (`code`, 16 hex characters,
--                          random); the other half is an HMAC of the licence's id under a secret
--                          the app holds (LICENSE_KEY_SECRET), so a copy of the database alone
--                          yields no usable key.
--   license_key_secret     the secret's stand-in for a deployment that sets none (the demo): one
--                          random row, the service role's alone.
--   agents.activation_limit  how many activations (`increment_uses`) one licence allows; none =
--                          unlimited. The seller's, set on the listing form.
--
-- Writes: the trigger (new licences), `use_license` (the verify endpoint, service role),
-- `reset_license_uses` (the buyer, once a day) and `set_license_disabled` (the agent's seller
-- or an admin, with a reason, audited).

alter table public.agents
  add column activation_limit integer
    constraint agents_activation_limit_check check (activation_limit between 1 and 1000);

create table public.licenses (
  id uuid primary key default gen_random_uuid(),
  purchase_id uuid not null unique references public.purchases (id) on delete cascade,
  agent_id uuid not null references public.agents (id) on delete cascade,
  buyer_id uuid not null references public.users (id) on delete cascade,
  -- The agent's seller when the licence was made (no foreign key: a second link to users would
  -- make the Data API's embedding ambiguous; the seller's rows are found by it).
  seller_id uuid,
  code text not null unique default pg_catalog.upper(pg_catalog.substr(pg_catalog.md5(gen_random_uuid()::text), 1, 16))
    constraint licenses_code_format check (code ~ '^[0-9A-F]{16}$'),
  uses integer not null default 0 constraint licenses_uses_check check (uses >= 0),
  last_used_at timestamptz,
  uses_reset_at timestamptz,
  disabled_at timestamptz,
  disabled_reason text constraint licenses_disabled_reason_length check (char_length(disabled_reason) between 1 and 500),
  disabled_by uuid,
  created_at timestamptz not null default now(),
  constraint licenses_disabled_with_reason check ((disabled_at is null) = (disabled_reason is null))
);
create index licenses_buyer_idx on public.licenses (buyer_id, created_at desc);
create index licenses_seller_idx on public.licenses (seller_id, created_at desc);
create index licenses_agent_idx on public.licenses (agent_id);

alter table public.licenses enable row level security;
create policy "licenses: buyer, seller and admins read" on public.licenses
  for select to authenticated
  using (buyer_id = (select auth.uid()) or seller_id = (select auth.uid()) or (select public.is_admin()));
select public.require_second_factor('public.licenses');
revoke all on public.licenses from anon, authenticated;
grant select on public.licenses to authenticated;
grant all on public.licenses to service_role;

create table public.license_key_secret (
  id boolean primary key default true constraint license_key_secret_one_row check (id),
  secret text not null default (pg_catalog.md5(gen_random_uuid()::text) || pg_catalog.md5(gen_random_uuid()::text))
);
alter table public.license_key_secret enable row level security;
select public.require_second_factor('public.license_key_secret');
revoke all on public.license_key_secret from anon, authenticated;
grant select on public.license_key_secret to service_role;
insert into public.license_key_secret default values;

-- A purchase that completes gets its licence (once; a refund keeps it, and it answers "refunded";
-- a purchase written as refunded at once, as imported history is, gets one too).
create function public.issue_license()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.status in ('completed', 'refunded') then
    insert into public.licenses (purchase_id, agent_id, buyer_id, seller_id)
    values (new.id, new.agent_id, new.buyer_id, new.seller_id)
    on conflict (purchase_id) do nothing;
  end if;
  return null;
end
$$;
revoke execute on function public.issue_license() from public, anon, authenticated;
create trigger issue_license after insert or update of status on public.purchases
  for each row when (new.status in ('completed', 'refunded')) execute function public.issue_license();

insert into public.licenses (purchase_id, agent_id, buyer_id, seller_id, created_at)
select p.id, p.agent_id, p.buyer_id, p.seller_id, p.created_at
from public.purchases p
where p.status in ('completed', 'refunded')
on conflict (purchase_id) do nothing;

-- What the verify endpoint needs about one licence, by its public code (service role only): the
-- app checks the key's other half, then answers from this row.
create function public.license_by_code(license_code text)
returns table (
  id uuid,
  agent_id uuid,
  agent_name text,
  purchase_status text,
  purchased_at timestamptz,
  uses integer,
  max_uses integer,
  disabled_reason text,
  first_version text,
  latest_version text
)
language sql
stable
set search_path = ''
as $$
  select l.id, l.agent_id, a.name, p.status, p.created_at, l.uses, a.activation_limit, l.disabled_reason,
    (select v.version from public.agent_versions v where v.agent_id = l.agent_id order by v.created_at, v.id limit 1),
    (select v.version from public.agent_versions v where v.agent_id = l.agent_id order by v.created_at desc, v.id desc limit 1)
  from public.licenses l
  join public.purchases p on p.id = l.purchase_id
  join public.agents a on a.id = l.agent_id
  where l.code = license_code;
$$;
revoke execute on function public.license_by_code(text) from public, anon, authenticated;
grant execute on function public.license_by_code(text) to service_role;

-- One activation, unless the licence is disabled, its purchase is not completed, or the agent's
-- limit is reached: then no row. The limit is read and the count raised in one statement, so
-- parallel activations never pass it.
create function public.use_license(license uuid)
returns table (uses integer, max_uses integer)
language sql
volatile
set search_path = ''
as $$
  update public.licenses l
  set uses = l.uses + 1, last_used_at = now()
  from public.agents a, public.purchases p
  where l.id = license
    and a.id = l.agent_id
    and p.id = l.purchase_id
    and p.status = 'completed'
    and l.disabled_at is null
    and (a.activation_limit is null or l.uses < a.activation_limit)
  returning l.uses, a.activation_limit;
$$;
revoke execute on function public.use_license(uuid) from public, anon, authenticated;
grant execute on function public.use_license(uuid) to service_role;

-- The buyer frees their activations (a new machine): at most once a day (PT429 otherwise).
create function public.reset_license_uses(license uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  last_reset timestamptz;
begin
  if not public.session_meets_mfa() then
    raise exception 'Two-factor sign-in required' using errcode = '42501';
  end if;
  select l.uses_reset_at into last_reset
  from public.licenses l
  where l.id = license and l.buyer_id = auth.uid()
  for update;
  if not found then
    raise exception 'No such licence' using errcode = 'PT404';
  end if;
  if last_reset is not null and last_reset > now() - interval '1 day' then
    raise exception 'Activations can be reset once a day' using errcode = 'PT429';
  end if;
  update public.licenses set uses = 0, uses_reset_at = now() where id = license;
end
$$;
revoke execute on function public.reset_license_uses(uuid) from public, anon;
grant execute on function public.reset_license_uses(uuid) to authenticated, service_role;

-- The agent's seller or an admin disables a licence with a reason, or enables it again (reason
-- null); each change is written to the audit log.
alter table public.audit_log drop constraint audit_log_action_check;
alter table public.audit_log add constraint audit_log_action_check check (action in (
  'user.role_changed', 'user.banned', 'user.unbanned', 'agent.unpublished', 'agent.restored', 'review.removed',
  'settings.changed', 'database.backed_up', 'report.generated', 'license.disabled', 'license.enabled'
));
alter table public.audit_log drop constraint audit_log_target_type_check;
alter table public.audit_log add constraint audit_log_target_type_check
  check (target_type in ('user', 'agent', 'review', 'settings', 'database', 'report', 'license'));

create function public.set_license_disabled(license uuid, reason text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  trimmed text := nullif(pg_catalog.btrim(reason), '');
begin
  if not public.session_meets_mfa() then
    raise exception 'Two-factor sign-in required' using errcode = '42501';
  end if;
  if reason is not null and (trimmed is null or char_length(trimmed) > 500) then
    raise exception 'The reason is 1 to 500 characters' using errcode = '22023';
  end if;
  perform 1 from public.licenses l
  where l.id = license and (l.seller_id = auth.uid() or public.is_admin())
  for update;
  if not found then
    raise exception 'No such licence' using errcode = 'PT404';
  end if;
  update public.licenses
  set disabled_at = case when trimmed is null then null else now() end,
      disabled_reason = trimmed,
      disabled_by = case when trimmed is null then null else auth.uid() end
  where id = license;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason)
  values (auth.uid(), case when trimmed is null then 'license.enabled' else 'license.disabled' end, 'license', license, trimmed);
end
$$;
revoke execute on function public.set_license_disabled(uuid, text) from public, anon;
grant execute on function public.set_license_disabled(uuid, text) to authenticated, service_role;
