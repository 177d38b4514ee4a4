-- Billing history: one read of everything a member was charged, newest first: every
-- purchase they made as the buyer and every charge of their subscription (the first month, a
-- prorated upgrade, a renewal). Billing's table, its CSV export and the invoice page all read it
-- (app/server/billing-history.server.ts). No new table: the view reads `purchases` and
-- `subscription_charges` as the caller (security_invoker), so their row-level security (and the
-- second-factor policy) applies, and the view itself keeps only the caller's own rows (an admin,
-- who may read every purchase, still sees only their own bill here).

-- The invoice number of a charge: stable and readable, 'AM-' + the UTC day it was made + eight hex
-- digits of the md5 of its id ('AM-20261128-1A2B3C4D'; a hash, because sequential ids such as the
-- seed's share their first digits). The page's URL uses the id itself.
create function public.invoice_number(created_at timestamptz, id uuid)
returns text
language sql
immutable
set search_path = ''
as $$
  select 'AM-' || to_char(created_at at time zone 'UTC', 'YYYYMMDD') || '-'
    || upper(left(md5(id::text), 8))
$$;
revoke execute on function public.invoice_number(timestamptz, uuid) from public, anon;
grant execute on function public.invoice_number(timestamptz, uuid) to authenticated, service_role;

-- kind: 'purchase' (an agent), or the subscription charge's kind ('subscription', 'proration',
-- 'renewal'). status is Billing's: a completed purchase is 'paid'. For a purchase,
-- list_price - discount_amount = amount (the purchases' own constraint); a subscription charge has
-- no discount. payment_method is the label recorded with the charge (null: none recorded; the
-- page shows the provider's label instead).
create view public.billing_history with (security_invoker = true) as
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
where p.buyer_id = (select auth.uid())
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
where c.user_id = (select auth.uid());

revoke all on public.billing_history from anon, authenticated;
grant select on public.billing_history to authenticated;
