-- Purchase History's summary in one aggregate (ADR 040). The page's header sums up the buyer's whole history
-- while its list shows 24 rows; the app used to read three columns of every purchase to add them
-- up, so each page load grew with the history. public.purchase_summary() answers one row instead.
--
-- It reads as the caller (security invoker): the row-level security of purchases (and of agents,
-- for the category; a buyer reads every agent they bought) applies, and it keeps only the
-- caller's purchases as the buyer, like public.purchase_history (an admin or a seller, who may
-- read other purchases, still gets only their own).

-- purchase_count: every purchase of the caller, whatever its status (pending, completed, failed,
--   refunded), as the header's "N purchases".
-- total_spent: the sum of the completed purchases' amounts (numeric(10, 2), so exact to the cent);
--   pending, failed and refunded purchases are not spent. 0 without one.
-- categories: the distinct categories of the agents bought, any status (an agent without a
--   category is left out), sorted; empty without a purchase. The filter's options.
create function public.purchase_summary()
returns table (purchase_count bigint, total_spent numeric, categories text[])
language sql
stable
security invoker
set search_path = ''
as $$
  select
    count(*),
    coalesce(sum(p.amount) filter (where p.status = 'completed'), 0),
    coalesce(array_agg(distinct a.category) filter (where a.category is not null), '{}')
  from public.purchases p
  left join public.agents a on a.id = p.agent_id
  where p.buyer_id = (select auth.uid())
$$;
revoke execute on function public.purchase_summary() from public, anon;
grant execute on function public.purchase_summary() to authenticated, service_role;
