-- Webhooks for sellers (ADR 076): endpoints that receive their events, signed per the Standard
-- Webhooks specification, delivered from a queue in the database by the server's job runner.
--
--   webhook_endpoints    a seller's endpoints (at most 10): URL, events, signing secret (never
--                        readable through the Data API; the app shows it once), failing_since
--   webhook_deliveries   one event for one endpoint: its payload, status, attempts, when it is next
--                        tried and until when (a day after it was made or redelivered)
--   webhook_attempts     every attempt: status code, answer time, error
--
-- Events are queued by triggers, in the same transaction as what they tell of: a completed or
-- refunded sale, a new review, a licence activation. The app's job runner (one process at a time,
-- under the `webhooks` lease) claims due deliveries with `claim_webhook_deliveries` and records each
-- attempt with `record_webhook_attempt`; a seller redelivers one with `redeliver_webhook`.

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references public.users (id) on delete cascade,
  url text not null constraint webhook_endpoints_url_format check (url ~ '^https?://[^\s]+$' and char_length(url) <= 500),
  events text[] not null constraint webhook_endpoints_events_check check (
    cardinality(events) between 1 and 4
    and events <@ array['sale.completed', 'sale.refunded', 'review.created', 'license.activated']::text[]
  ),
  secret text not null constraint webhook_endpoints_secret_format check (secret ~ '^whsec_[A-Za-z0-9+/]{32,88}={0,2}$'),
  failing_since timestamptz,
  created_at timestamptz not null default now()
);
create index webhook_endpoints_seller_idx on public.webhook_endpoints (seller_id, created_at desc);

alter table public.webhook_endpoints enable row level security;
create policy "webhook_endpoints: owner reads own" on public.webhook_endpoints
  for select to authenticated using (seller_id = (select auth.uid()));
create policy "webhook_endpoints: sellers add their own" on public.webhook_endpoints
  for insert to authenticated with check (
    seller_id = (select auth.uid())
    and exists (select 1 from public.users u where u.id = (select auth.uid()) and u.user_type in ('seller', 'admin'))
  );
create policy "webhook_endpoints: owner deletes own" on public.webhook_endpoints
  for delete to authenticated using (seller_id = (select auth.uid()));
select public.require_second_factor('public.webhook_endpoints');
revoke all on public.webhook_endpoints from anon, authenticated;
grant select (id, seller_id, url, events, failing_since, created_at) on public.webhook_endpoints to authenticated;
grant insert (seller_id, url, events, secret) on public.webhook_endpoints to authenticated;
grant delete on public.webhook_endpoints to authenticated;
grant all on public.webhook_endpoints to service_role;

-- At most 10 endpoints a person (SQLSTATE PT409, HTTP 409).
create function public.webhook_endpoints_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('webhook_endpoints:' || new.seller_id::text));
  if (select pg_catalog.count(*) from public.webhook_endpoints e where e.seller_id = new.seller_id) >= 10 then
    raise exception 'At most 10 webhook endpoints per person' using errcode = 'PT409';
  end if;
  new.failing_since := null;
  new.created_at := now();
  return new;
end
$$;
revoke execute on function public.webhook_endpoints_limit() from public, anon, authenticated;
create trigger webhook_endpoints_limit before insert on public.webhook_endpoints
  for each row execute function public.webhook_endpoints_limit();

create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  seller_id uuid not null,
  event_type text not null,
  payload jsonb not null,
  status text not null default 'pending' constraint webhook_deliveries_status_check check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  retry_until timestamptz not null default now() + interval '1 day',
  last_status_code integer,
  delivered_at timestamptz,
  created_at timestamptz not null default now()
);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (endpoint_id, created_at desc);
create index webhook_deliveries_seller_idx on public.webhook_deliveries (seller_id, created_at desc);

create table public.webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  seller_id uuid not null,
  attempted_at timestamptz not null default now(),
  status_code integer,
  duration_ms integer not null constraint webhook_attempts_duration_check check (duration_ms >= 0),
  error text constraint webhook_attempts_error_length check (char_length(error) <= 500)
);
create index webhook_attempts_delivery_idx on public.webhook_attempts (delivery_id, attempted_at desc);

alter table public.webhook_deliveries enable row level security;
alter table public.webhook_attempts enable row level security;
create policy "webhook_deliveries: owner reads own" on public.webhook_deliveries
  for select to authenticated using (seller_id = (select auth.uid()));
create policy "webhook_attempts: owner reads own" on public.webhook_attempts
  for select to authenticated using (seller_id = (select auth.uid()));
select public.require_second_factor('public.webhook_deliveries');
select public.require_second_factor('public.webhook_attempts');
revoke all on public.webhook_deliveries, public.webhook_attempts from anon, authenticated;
grant select on public.webhook_deliveries, public.webhook_attempts to authenticated;
grant all on public.webhook_deliveries, public.webhook_attempts to service_role;

insert into public.job_leases (name) values ('webhooks');

-- ---------------------------------------------------------------------------------------------
-- Events
-- ---------------------------------------------------------------------------------------------
create function public.enqueue_webhook(seller uuid, event text, data jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.webhook_deliveries (endpoint_id, seller_id, event_type, payload)
  select e.id, e.seller_id, event,
    pg_catalog.jsonb_build_object('type', event, 'timestamp', pg_catalog.now(), 'data', data)
  from public.webhook_endpoints e
  where e.seller_id = seller and event = any (e.events);
$$;
revoke execute on function public.enqueue_webhook(uuid, text, jsonb) from public, anon, authenticated;

create function public.webhook_sale_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  event text;
begin
  if new.seller_id is null then
    return null;
  end if;
  if new.status = 'completed' and (tg_op = 'INSERT' or old.status is distinct from 'completed') then
    event := 'sale.completed';
  elsif new.status = 'refunded' and tg_op = 'UPDATE' and old.status is distinct from 'refunded' then
    event := 'sale.refunded';
  else
    return null;
  end if;
  perform public.enqueue_webhook(new.seller_id, event, pg_catalog.jsonb_build_object(
    'sale', pg_catalog.jsonb_build_object(
      'id', new.id, 'agent_id', new.agent_id, 'amount', new.amount, 'currency', 'USD',
      'status', new.status, 'created_at', new.created_at, 'refunded_at', new.refunded_at,
      'reason', case when new.status = 'refunded' then new.status_reason end
    )
  ));
  return null;
end
$$;
revoke execute on function public.webhook_sale_events() from public, anon, authenticated;
create trigger webhook_sale_events after insert or update of status on public.purchases
  for each row when (new.status in ('completed', 'refunded')) execute function public.webhook_sale_events();

create function public.webhook_review_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.enqueue_webhook(a.seller_id, 'review.created', pg_catalog.jsonb_build_object(
    'review', pg_catalog.jsonb_build_object(
      'id', new.id, 'agent_id', new.agent_id, 'rating', new.rating, 'text', new.review_text,
      'created_at', new.created_at
    )
  ))
  from public.agents a
  where a.id = new.agent_id and a.seller_id is not null;
  return null;
end
$$;
revoke execute on function public.webhook_review_events() from public, anon, authenticated;
create trigger webhook_review_events after insert on public.reviews
  for each row execute function public.webhook_review_events();

create function public.webhook_license_events()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.seller_id is not null then
    perform public.enqueue_webhook(new.seller_id, 'license.activated', pg_catalog.jsonb_build_object(
      'license', pg_catalog.jsonb_build_object(
        'id', new.id, 'agent_id', new.agent_id, 'purchase_id', new.purchase_id, 'code', new.code,
        'uses', new.uses, 'activated_at', new.last_used_at
      )
    ));
  end if;
  return null;
end
$$;
revoke execute on function public.webhook_license_events() from public, anon, authenticated;
create trigger webhook_license_events after update of uses on public.licenses
  for each row when (new.uses > old.uses) execute function public.webhook_license_events();

-- ---------------------------------------------------------------------------------------------
-- The job runner's side (service role)
-- ---------------------------------------------------------------------------------------------

-- Up to `max_count` due deliveries, each held for five minutes (so a runner that dies mid-send
-- frees it), with what sending needs.
create function public.claim_webhook_deliveries(max_count integer)
returns table (id uuid, url text, secret text, payload jsonb, attempts integer)
language sql
volatile
set search_path = ''
as $$
  with due as (
    select d.id
    from public.webhook_deliveries d
    where d.status = 'pending' and d.next_attempt_at <= now()
    order by d.next_attempt_at
    limit least(greatest(max_count, 1), 100)
    for update skip locked
  )
  update public.webhook_deliveries d
  set next_attempt_at = now() + interval '5 minutes'
  from due, public.webhook_endpoints e
  where d.id = due.id and e.id = d.endpoint_id
  returning d.id, e.url, e.secret, d.payload, d.attempts;
$$;
revoke execute on function public.claim_webhook_deliveries(integer) from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(integer) to service_role;

-- One attempt's outcome: a 2xx delivers it; otherwise it is tried again after 30 s, 1 min, 2 min,
-- … (doubling, at most 6 hours apart) until `retry_until`, then it has failed. The endpoint is
-- flagged failing from its first failed attempt until one succeeds.
create function public.record_webhook_attempt(delivery uuid, code integer, took_ms integer, failure text)
returns text
language plpgsql
volatile
set search_path = ''
as $$
declare
  current_delivery public.webhook_deliveries;
  succeeded boolean := code between 200 and 299;
  wait interval;
  outcome text;
begin
  select * into current_delivery from public.webhook_deliveries d where d.id = delivery for update;
  if not found then
    return 'gone';
  end if;
  insert into public.webhook_attempts (delivery_id, seller_id, status_code, duration_ms, error)
  values (delivery, current_delivery.seller_id, code, greatest(took_ms, 0), pg_catalog.left(failure, 500));
  if succeeded then
    outcome := 'succeeded';
    update public.webhook_deliveries
    set status = outcome, attempts = attempts + 1, last_status_code = code, delivered_at = now()
    where id = delivery;
    update public.webhook_endpoints set failing_since = null where id = current_delivery.endpoint_id;
  else
    wait := least(interval '30 seconds' * (2 ^ least(current_delivery.attempts, 20)), interval '6 hours');
    outcome := case when now() + wait > current_delivery.retry_until then 'failed' else 'pending' end;
    update public.webhook_deliveries
    set status = outcome, attempts = attempts + 1, last_status_code = code, next_attempt_at = now() + wait
    where id = delivery;
    update public.webhook_endpoints set failing_since = coalesce(failing_since, now()) where id = current_delivery.endpoint_id;
  end if;
  return outcome;
end
$$;
revoke execute on function public.record_webhook_attempt(uuid, integer, integer, text) from public, anon, authenticated;
grant execute on function public.record_webhook_attempt(uuid, integer, integer, text) to service_role;

-- The seller sends one delivery again now (and for a day more), whatever its status.
create function public.redeliver_webhook(delivery uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not public.session_meets_mfa() then
    raise exception 'Two-factor sign-in required' using errcode = '42501';
  end if;
  update public.webhook_deliveries
  set status = 'pending', next_attempt_at = now(), retry_until = now() + interval '1 day', delivered_at = null
  where id = delivery and seller_id = auth.uid();
  if not found then
    raise exception 'No such delivery' using errcode = 'PT404';
  end if;
end
$$;
revoke execute on function public.redeliver_webhook(uuid) from public, anon;
grant execute on function public.redeliver_webhook(uuid) to authenticated;
