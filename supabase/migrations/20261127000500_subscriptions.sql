-- Membership subscriptions (ADR 018). A member's tier is the tier of
-- their live subscription; spending drives loyalty only. Both tables are written only by trusted
-- server code (the service role, after the route's guard) through the payment-provider boundary
-- (app/server/subscriptions.server.ts); members read their own rows.

-- The second-factor policy (ADR 016) on every new table. This file sorts before the migration
-- that defines `public.require_second_factor` (20261127000900): on a new database that migration
-- still runs after this one and gives these tables the policy with every other; on a database that
-- already has it, the function exists and adds it here. Never both (the policy name is unique).
create function pg_temp.second_factor_policy(target regclass) returns void language plpgsql as $$
begin
  if to_regprocedure('public.require_second_factor(regclass)') is not null then
    perform public.require_second_factor(target);
  end if;
end;
$$;

-- ---------------------------------------------------------------------------------------------
-- subscriptions: one row per subscription a member started. 'incomplete' holds the place while
-- the first payment is taken (so two submissions cannot both subscribe); 'active' and 'past_due'
-- are live; 'canceled' is over. At most one incomplete or live subscription per member.
-- ---------------------------------------------------------------------------------------------
create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  tier text not null constraint subscriptions_tier_check check (tier in ('premium', 'enterprise')),
  status text not null default 'incomplete'
    constraint subscriptions_status_check check (status in ('incomplete', 'active', 'past_due', 'canceled')),
  -- A downgrade waits for the end of the period (no refunds of a part of a month).
  scheduled_tier text constraint subscriptions_scheduled_tier_check check (scheduled_tier in ('premium', 'enterprise')),
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  canceled_at timestamptz,
  provider text not null constraint subscriptions_provider_length check (char_length(provider) between 1 and 50),
  provider_subscription_id text
    constraint subscriptions_provider_subscription_id_length check (char_length(provider_subscription_id) <= 255),
  provider_customer_id text
    constraint subscriptions_provider_customer_id_length check (char_length(provider_customer_id) <= 255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint subscriptions_period_order check (current_period_end > current_period_start),
  constraint subscriptions_live_has_period check (
    status in ('incomplete', 'canceled') or (current_period_start is not null and current_period_end is not null)
  ),
  constraint subscriptions_scheduled_tier_differs check (scheduled_tier is distinct from tier)
);
create unique index subscriptions_one_live_per_user on public.subscriptions (user_id)
  where status in ('incomplete', 'active', 'past_due');
create unique index subscriptions_provider_id_key on public.subscriptions (provider, provider_subscription_id);
create index subscriptions_user_id_created_at_idx on public.subscriptions (user_id, created_at desc);

create trigger subscriptions_set_updated_at before update on public.subscriptions
  for each row execute function public.set_updated_at();

alter table public.subscriptions enable row level security;
revoke all on public.subscriptions from anon, authenticated;
grant select on public.subscriptions to authenticated;
create policy "members read their own subscriptions" on public.subscriptions
  for select to authenticated using (user_id = (select auth.uid()));
select pg_temp.second_factor_policy('public.subscriptions');

-- ---------------------------------------------------------------------------------------------
-- subscription_charges: every charge of a subscription (the first month, a prorated upgrade;
-- renewals later), paid or failed — the subscription half of Billing's history. The form's
-- idempotency key is unique per member: the same confirmation twice is one charge.
-- ---------------------------------------------------------------------------------------------
create table public.subscription_charges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.users (id) on delete cascade,
  subscription_id uuid references public.subscriptions (id) on delete set null,
  tier text not null constraint subscription_charges_tier_check check (tier in ('premium', 'enterprise')),
  kind text not null constraint subscription_charges_kind_check check (kind in ('subscription', 'proration', 'renewal')),
  description text not null constraint subscription_charges_description_length check (char_length(description) between 1 and 200),
  amount numeric(10, 2) not null constraint subscription_charges_amount_check check (amount >= 0),
  status text not null default 'pending'
    constraint subscription_charges_status_check check (status in ('pending', 'paid', 'failed', 'refunded')),
  status_reason text constraint subscription_charges_status_reason_length check (char_length(status_reason) <= 500),
  period_start timestamptz,
  period_end timestamptz,
  provider text not null constraint subscription_charges_provider_length check (char_length(provider) between 1 and 50),
  provider_payment_id text
    constraint subscription_charges_provider_payment_id_length check (char_length(provider_payment_id) <= 255),
  idempotency_key text not null
    constraint subscription_charges_idempotency_key_length check (char_length(idempotency_key) between 1 and 255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint subscription_charges_user_id_idempotency_key_key unique (user_id, idempotency_key)
);
create index subscription_charges_user_id_created_at_idx on public.subscription_charges (user_id, created_at desc);
create index subscription_charges_subscription_id_idx on public.subscription_charges (subscription_id);

create trigger subscription_charges_set_updated_at before update on public.subscription_charges
  for each row execute function public.set_updated_at();

alter table public.subscription_charges enable row level security;
revoke all on public.subscription_charges from anon, authenticated;
grant select on public.subscription_charges to authenticated;
create policy "members read their own subscription charges" on public.subscription_charges
  for select to authenticated using (user_id = (select auth.uid()));
select pg_temp.second_factor_policy('public.subscription_charges');
