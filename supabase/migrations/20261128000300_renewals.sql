-- Renewals (ADR 018): what a provider reports about a subscription after the request
-- that changed it — a renewal paid, a renewal failed, the subscription ended — is applied once per
-- event id by `public.apply_subscription_notification` (one transaction), and the renewal job
-- (app/server/renewals.server.ts) runs on one server at a time under a `job_leases` row.

-- The provider's events about subscriptions are recorded beside those about payments: an event id
-- seen before is a replay, applied once.
alter table public.payment_events
  add column subscription_id uuid references public.subscriptions (id) on delete set null;
create index payment_events_subscription_id_idx on public.payment_events (subscription_id);

-- When the renewal job last asked the provider to renew this period (the job's clock): a
-- past-due subscription is retried once a day.
alter table public.subscriptions add column last_renewal_attempt_at timestamptz;

-- ---------------------------------------------------------------------------------------------
-- apply_subscription_notification: 'renewed' starts the new period (a scheduled downgrade takes
-- effect, status active, a paid renewal charge); 'past_due' marks the subscription and records the
-- failed charge with its reason; 'canceled' ends it (the member is Basic again). Returns
-- 'applied', 'duplicate' (the event id was seen before) or 'ignored' (no such subscription, or
-- nothing to move: a stale renewal, an event about an ended subscription). An unknown
-- subscription records nothing, so a later delivery can still apply.
-- ---------------------------------------------------------------------------------------------
create function public.apply_subscription_notification(
  event text,
  subscription_ref text,
  outcome text,
  new_period_start timestamptz default null,
  new_period_end timestamptz default null,
  payment_ref text default null,
  charged numeric default null,
  method_label text default null,
  reason text default null
)
returns text
language plpgsql
set search_path = ''
as $$
declare
  sub public.subscriptions%rowtype;
  charged_tier text;
  moved boolean := false;
begin
  if outcome not in ('renewed', 'past_due', 'canceled') then
    raise exception 'Unknown subscription outcome %', outcome using errcode = '22023';
  end if;
  if outcome = 'renewed' and (new_period_start is null or new_period_end is null) then
    raise exception 'A renewal needs its new period' using errcode = '22023';
  end if;

  select s.* into sub from public.subscriptions s where s.provider_subscription_id = subscription_ref for update;
  if not found then
    return 'ignored';
  end if;

  insert into public.payment_events (id, provider, subscription_id, type)
  values (event, sub.provider, sub.id, 'subscription.' || outcome)
  on conflict (id) do nothing;
  if not found then
    return 'duplicate';
  end if;

  if sub.status not in ('active', 'past_due') then
    return 'ignored';
  end if;

  charged_tier := coalesce(sub.scheduled_tier, sub.tier);
  if outcome = 'renewed' then
    -- Only forwards: a renewal of a period already passed (a late delivery) changes nothing.
    if new_period_end > sub.current_period_end then
      update public.subscriptions
      set tier = charged_tier, scheduled_tier = null, status = 'active',
          current_period_start = new_period_start, current_period_end = new_period_end
      where id = sub.id;
      moved := true;
    end if;
  elsif outcome = 'past_due' then
    update public.subscriptions set status = 'past_due' where id = sub.id;
    moved := true;
  else
    update public.subscriptions
    set status = 'canceled', scheduled_tier = null, canceled_at = coalesce(canceled_at, now())
    where id = sub.id;
    moved := true;
  end if;

  if moved and outcome <> 'canceled' then
    insert into public.subscription_charges (
      user_id, subscription_id, tier, kind, description, amount, status, status_reason,
      period_start, period_end, provider, provider_payment_id, payment_method, idempotency_key
    ) values (
      sub.user_id, sub.id, charged_tier, 'renewal',
      initcap(charged_tier) || ' membership - monthly renewal',
      coalesce(charged, 0),
      case when outcome = 'renewed' then 'paid' else 'failed' end,
      case when outcome = 'past_due' then left(coalesce(reason, 'The payment did not go through.'), 500) end,
      case when outcome = 'renewed' then new_period_start end,
      case when outcome = 'renewed' then new_period_end end,
      sub.provider, payment_ref, left(method_label, 100), 'event:' || event
    )
    on conflict (user_id, idempotency_key) do nothing;
  end if;
  return case when moved then 'applied' else 'ignored' end;
end
$$;
revoke execute on function public.apply_subscription_notification(
  text, text, text, timestamptz, timestamptz, text, numeric, text, text
) from public, anon, authenticated;
grant execute on function public.apply_subscription_notification(
  text, text, text, timestamptz, timestamptz, text, numeric, text, text
) to service_role;

-- ---------------------------------------------------------------------------------------------
-- job_leases: one row per scheduled job. A server runs the job only after claiming the row with
-- one UPDATE … WHERE expires_at < now RETURNING (so of several servers one wins), and releases it
-- when done; a server that dies mid-run loses the lease when it expires. Service role only.
-- ---------------------------------------------------------------------------------------------
create table public.job_leases (
  name text primary key constraint job_leases_name_length check (char_length(name) between 1 and 100),
  holder text constraint job_leases_holder_length check (char_length(holder) <= 255),
  expires_at timestamptz not null default '-infinity',
  updated_at timestamptz not null default now()
);
create trigger job_leases_set_updated_at before update on public.job_leases
  for each row execute function public.set_updated_at();
insert into public.job_leases (name) values ('renewals');

alter table public.job_leases enable row level security;
revoke all on public.job_leases from anon, authenticated;
select public.require_second_factor('public.job_leases');
