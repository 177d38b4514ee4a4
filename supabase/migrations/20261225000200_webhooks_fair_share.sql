-- Webhooks, after a review (ADR 076): one seller's failing or silent endpoints cannot hold up the
-- others' deliveries, nor fill the queue.
--
--   * claim_webhook_deliveries takes at most 5 due deliveries per seller in one claim, oldest first;
--   * a seller has at most 1,000 deliveries waiting: events beyond are not queued;
--   * a delivery is redelivered at most once a minute (PT429);
--   * delivered and failed deliveries (with their attempts) are deleted after 30 days
--     (prune_webhook_deliveries, called by the runner).

alter table public.webhook_deliveries add column redelivered_at timestamptz;
create index webhook_deliveries_pending_seller_idx on public.webhook_deliveries (seller_id) where status = 'pending';
create index webhook_deliveries_done_idx on public.webhook_deliveries (created_at) where status <> 'pending';

create or replace function public.enqueue_webhook(seller uuid, event text, data jsonb)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.webhook_deliveries (endpoint_id, seller_id, event_type, payload)
  select e.id, e.seller_id, event,
    pg_catalog.jsonb_build_object('type', event, 'timestamp', pg_catalog.now(), 'data', data)
  from public.webhook_endpoints e
  where e.seller_id = seller and event = any (e.events)
    and (select pg_catalog.count(*) from public.webhook_deliveries d
         where d.seller_id = seller and d.status = 'pending') < 1000;
$$;
revoke execute on function public.enqueue_webhook(uuid, text, jsonb) from public, anon, authenticated;

create or replace function public.claim_webhook_deliveries(max_count integer)
returns table (id uuid, url text, secret text, payload jsonb, attempts integer)
language sql
volatile
set search_path = ''
as $$
  with ranked as (
    select d.id, d.next_attempt_at,
      pg_catalog.row_number() over (partition by d.seller_id order by d.next_attempt_at) as place
    from public.webhook_deliveries d
    where d.status = 'pending' and d.next_attempt_at <= now()
  ), due as (
    select d.id
    from public.webhook_deliveries d
    join ranked r on r.id = d.id
    where r.place <= 5
    order by r.next_attempt_at
    limit least(greatest(max_count, 1), 100)
    for update of d skip locked
  )
  update public.webhook_deliveries d
  set next_attempt_at = now() + interval '5 minutes'
  from due, public.webhook_endpoints e
  where d.id = due.id and e.id = d.endpoint_id
  returning d.id, e.url, e.secret, d.payload, d.attempts;
$$;
revoke execute on function public.claim_webhook_deliveries(integer) from public, anon, authenticated;
grant execute on function public.claim_webhook_deliveries(integer) to service_role;

create or replace function public.redeliver_webhook(delivery uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  last_redelivery timestamptz;
begin
  if not public.session_meets_mfa() then
    raise exception 'Two-factor sign-in required' using errcode = '42501';
  end if;
  select d.redelivered_at into last_redelivery
  from public.webhook_deliveries d
  where d.id = delivery and d.seller_id = auth.uid()
  for update;
  if not found then
    raise exception 'No such delivery' using errcode = 'PT404';
  end if;
  if last_redelivery is not null and last_redelivery > now() - interval '1 minute' then
    raise exception 'A delivery is redelivered at most once a minute' using errcode = 'PT429';
  end if;
  update public.webhook_deliveries
  set status = 'pending', next_attempt_at = now(), retry_until = now() + interval '1 day', delivered_at = null,
      redelivered_at = now()
  where id = delivery;
end
$$;
revoke execute on function public.redeliver_webhook(uuid) from public, anon;
grant execute on function public.redeliver_webhook(uuid) to authenticated;

create function public.prune_webhook_deliveries()
returns integer
language sql
volatile
set search_path = ''
as $$
  with gone as (
    delete from public.webhook_deliveries d
    where d.status <> 'pending' and d.created_at < now() - interval '30 days'
    returning 1
  )
  select pg_catalog.count(*)::integer from gone;
$$;
revoke execute on function public.prune_webhook_deliveries() from public, anon, authenticated;
grant execute on function public.prune_webhook_deliveries() to service_role;
