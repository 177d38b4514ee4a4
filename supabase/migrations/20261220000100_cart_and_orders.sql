-- A cart, and orders: several agents bought with one payment (ADR 072).
--
--   cart_items   the agents a buyer put in their cart, their own rows only (row-level security),
--                a published agent of another seller, at most 50
--   orders       one checkout of a cart: one payment at the provider, written by the service role
--                only (after the app's guard); the same key of a buyer is the same order
--   purchases.order_id   the order a purchase was bought in (one purchase per agent, as always)
--   billing_history      an order is one row (one invoice, a line per agent); its purchases are
--                        not rows of their own

create table public.cart_items (
  user_id uuid not null references public.users (id) on delete cascade,
  agent_id uuid not null references public.agents (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (user_id, agent_id)
);

alter table public.cart_items enable row level security;
create policy "cart_items: owner reads own" on public.cart_items
  for select to authenticated using (user_id = (select auth.uid()));
-- What may go in: a published agent of another seller (whether it is owned already is the
-- checkout's word, per line, as it may change after it was added).
create policy "cart_items: owner adds a published agent of another seller" on public.cart_items
  for insert to authenticated with check (
    user_id = (select auth.uid())
    and exists (
      select 1 from public.agents a
      where a.id = agent_id and a.status = 'published' and a.seller_id is distinct from (select auth.uid())
    )
  );
create policy "cart_items: owner removes own" on public.cart_items
  for delete to authenticated using (user_id = (select auth.uid()));
select public.require_second_factor('public.cart_items');
revoke all on public.cart_items from anon, authenticated;
grant select, insert, delete on public.cart_items to authenticated;
grant all on public.cart_items to service_role;

-- At most 50 agents in a cart (SQLSTATE PT409, HTTP 409).
create function public.cart_items_limit()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtext('cart_items:' || new.user_id::text));
  if (select pg_catalog.count(*) from public.cart_items c where c.user_id = new.user_id) >= 50 then
    raise exception 'A cart holds at most 50 agents' using errcode = 'PT409';
  end if;
  return new;
end
$$;
revoke execute on function public.cart_items_limit() from public, anon, authenticated;
create trigger cart_items_limit before insert on public.cart_items
  for each row execute function public.cart_items_limit();

create table public.orders (
  id uuid primary key default gen_random_uuid(),
  buyer_id uuid references public.users (id) on delete set null,
  idempotency_key uuid not null,
  status text not null default 'pending' constraint orders_status_check check (status in ('pending', 'completed', 'failed')),
  list_price numeric(10, 2) not null constraint orders_list_price_check check (list_price >= 0),
  discount_percent integer not null default 0 constraint orders_discount_percent_check check (discount_percent between 0 and 100),
  discount_amount numeric(10, 2) not null default 0 constraint orders_discount_amount_check check (discount_amount >= 0),
  amount numeric(10, 2) not null constraint orders_amount_check check (amount >= 0),
  payment_provider text not null default 'test'
    constraint orders_payment_provider_check check (payment_provider ~ '^[a-z][a-z0-9_]{0,30}$'),
  payment_intent_id text,
  payment_method text,
  status_reason text constraint orders_status_reason_length check (char_length(status_reason) <= 500),
  created_at timestamptz not null default now(),
  constraint orders_amount_is_list_minus_discount check (amount = list_price - discount_amount)
);
create unique index orders_buyer_idempotency_key on public.orders (buyer_id, idempotency_key);
create index orders_payment_intent_id_idx on public.orders (payment_intent_id) where payment_intent_id is not null;
create index orders_buyer_created_idx on public.orders (buyer_id, created_at desc);

alter table public.orders enable row level security;
create policy "orders: buyer reads own, admins all" on public.orders
  for select to authenticated using (buyer_id = (select auth.uid()) or (select public.is_admin()));
select public.require_second_factor('public.orders');
revoke all on public.orders from anon, authenticated;
grant select on public.orders to authenticated;
grant all on public.orders to service_role;

-- An order's status moves forward only, and its money never changes.
create function public.guard_order()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (new.buyer_id, new.idempotency_key, new.list_price, new.discount_percent, new.discount_amount, new.amount,
      new.payment_provider, new.created_at)
     is distinct from
     (old.buyer_id, old.idempotency_key, old.list_price, old.discount_percent, old.discount_amount, old.amount,
      old.payment_provider, old.created_at)
     and not (old.buyer_id is not null and new.buyer_id is null) then
    raise exception 'An order''s buyer and amounts cannot change' using errcode = '22023';
  end if;
  if new.status is distinct from old.status and old.status <> 'pending' then
    raise exception 'A % order cannot become %', old.status, new.status using errcode = 'PT409';
  end if;
  return new;
end
$$;
revoke execute on function public.guard_order() from public, anon, authenticated;
create trigger orders_guard before update on public.orders
  for each row execute function public.guard_order();

alter table public.purchases add column order_id uuid references public.orders (id) on delete set null;
create index purchases_order_id_idx on public.purchases (order_id) where order_id is not null;

alter table public.payment_events add column order_id uuid references public.orders (id) on delete set null;

-- The billing history (migration 20261128000200) with orders: an order is one row, kind 'order';
-- the purchases of an order are its lines, read on the invoice page, not rows of their own.
create or replace view public.billing_history with (security_invoker = true) as
select
  p.id,
  'purchase'::text as kind,
  p.created_at,
  'AI agent purchase - ' || coalesce(a.name, 'agent no longer listed') as description,
  a.name as agent_name,
  p.agent_id,
  p.seller_id,
  null::text as tier,
  p.list_price,
  p.discount_percent,
  p.discount_amount,
  p.amount,
  case p.status when 'completed' then 'paid' else p.status end as status,
  p.status_reason,
  p.refunded_at,
  p.payment_method,
  p.payment_provider as provider,
  null::timestamptz as period_start,
  null::timestamptz as period_end,
  public.invoice_number(p.created_at, p.id) as invoice_number
from public.purchases p
left join public.agents a on a.id = p.agent_id
where p.buyer_id = (select auth.uid()) and p.order_id is null
union all
select
  c.id,
  c.kind,
  c.created_at,
  c.description,
  null::text,
  null::uuid,
  null::uuid,
  c.tier,
  c.amount,
  0,
  0::numeric(10, 2),
  c.amount,
  c.status,
  c.status_reason,
  null::timestamptz,
  c.payment_method,
  c.provider,
  c.period_start,
  c.period_end,
  public.invoice_number(c.created_at, c.id)
from public.subscription_charges c
where c.user_id = (select auth.uid())
union all
select
  o.id,
  'order'::text,
  o.created_at,
  'AI agent order - ' || lines.count || case when lines.count = 1 then ' agent' else ' agents' end
    || case when lines.refunded > 0 and lines.refunded < lines.count then ', ' || lines.refunded || ' refunded' else '' end,
  null::text,
  null::uuid,
  null::uuid,
  null::text,
  o.list_price,
  o.discount_percent,
  o.discount_amount,
  o.amount,
  case
    when o.status = 'completed' and lines.refunded = lines.count then 'refunded'
    when o.status = 'completed' then 'paid'
    else o.status
  end,
  o.status_reason,
  case when lines.refunded = lines.count then lines.refunded_at end,
  o.payment_method,
  o.payment_provider,
  null::timestamptz,
  null::timestamptz,
  public.invoice_number(o.created_at, o.id)
from public.orders o
cross join lateral (
  select pg_catalog.count(*) as count, pg_catalog.count(*) filter (where p.status = 'refunded') as refunded,
    pg_catalog.max(p.refunded_at) as refunded_at
  from public.purchases p where p.order_id = o.id
) lines
where o.buyer_id = (select auth.uid());

-- An order and its purchases (pending), in one transaction: both or neither. The service role's,
-- after the app has priced each line. Security invoker, so the purchases are written as the
-- service role and `guard_purchase` judges each line as it judges a single Buy (published, not the
-- buyer's own, at the agent's price now: PT409 / 22023); the live-purchase index refuses an agent
-- the buyer has or is paying for (SQLSTATE 23505).
create function public.create_order(
  buyer uuid,
  order_key uuid,
  order_provider text,
  order_method text,
  order_discount_percent integer,
  lines jsonb
)
returns uuid
language plpgsql
security invoker
set search_path = ''
as $$
declare
  placed uuid;
begin
  insert into public.orders (buyer_id, idempotency_key, list_price, discount_percent, discount_amount, amount,
      payment_provider, payment_method)
    select buyer, order_key, sum(l.list_price), order_discount_percent, sum(l.discount_amount), sum(l.amount),
      order_provider, nullif(order_method, '')
    from pg_catalog.jsonb_to_recordset(lines) as l(agent_id uuid, list_price numeric, discount_amount numeric, amount numeric)
    returning id into placed;
  insert into public.purchases (buyer_id, agent_id, list_price, discount_percent, discount_amount, amount, status,
      payment_provider, payment_method, order_id)
    select buyer, l.agent_id, l.list_price, order_discount_percent, l.discount_amount, l.amount, 'pending',
      order_provider, nullif(order_method, ''), placed
    from pg_catalog.jsonb_to_recordset(lines) as l(agent_id uuid, list_price numeric, discount_amount numeric, amount numeric);
  return placed;
end
$$;
revoke execute on function public.create_order(uuid, uuid, text, text, integer, jsonb) from public, anon, authenticated;
grant execute on function public.create_order(uuid, uuid, text, text, integer, jsonb) to service_role;

-- What the provider said about an order's payment, applied once per event id, to the order and
-- every purchase in it, in one transaction (security invoker: the service role's writes, judged by
-- `guard_purchase`): pending → completed | failed, a completed order's agents leaving the cart; a
-- refund of the whole payment refunds every completed purchase of it. Returns the purchases it moved.
create function public.apply_order_payment(
  paid_order uuid,
  event_id text,
  event_provider text,
  event_outcome text,
  event_reason text default null,
  refunder uuid default null
)
returns setof uuid
language plpgsql
security invoker
set search_path = ''
as $$
declare
  moved uuid[];
begin
  if event_outcome not in ('completed', 'failed', 'refunded') then
    raise exception 'Unknown payment outcome %', event_outcome using errcode = '22023';
  end if;
  insert into public.payment_events (id, provider, order_id, type)
    values (event_id, event_provider, paid_order, event_outcome)
    on conflict (id) do nothing;
  if not found then
    return;
  end if;
  if event_outcome = 'refunded' then
    return query
      update public.purchases p
        set status = 'refunded', status_reason = event_reason, refunded_by = refunder, refunded_at = now()
        where p.order_id = paid_order and p.status = 'completed'
        returning p.id;
    return;
  end if;
  update public.orders o set status = event_outcome, status_reason = event_reason
    where o.id = paid_order and o.status = 'pending';
  with settled as (
    update public.purchases p
      set status = event_outcome, status_reason = event_reason
      where p.order_id = paid_order and p.status = 'pending'
      returning p.id
  )
  select pg_catalog.array_agg(settled.id) into moved from settled;
  -- Bought (now or when the provider's word came later): out of the buyer's cart.
  if event_outcome = 'completed' then
    delete from public.cart_items c
      using public.purchases p
      where p.order_id = paid_order and c.user_id = p.buyer_id and c.agent_id = p.agent_id;
  end if;
  return query select unnest(coalesce(moved, '{}'::uuid[]));
end
$$;
revoke execute on function public.apply_order_payment(uuid, text, text, text, text, uuid) from public, anon, authenticated;
grant execute on function public.apply_order_payment(uuid, text, text, text, text, uuid) to service_role;
