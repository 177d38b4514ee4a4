-- What the app used to work out itself from every row, done by the database
-- (docs/decisions/026-aggregates-in-the-database.md). The dashboard overview, Membership and the
-- agent page read every row behind a figure (a buyer's completed purchases, a seller's sales and
-- the ratings of their agents, every completed purchase of the platform, every rating of an
-- agent) and counted or summed them in the app; the account deletion listed a seller's sold
-- agents from their purchases. The Data API returns at most 1,000 rows a request (PostgREST's
-- max_rows), so past 1,000 rows each figure was that of the first 1,000 only, and each page load
-- grew with the history. Each function below answers one row (or one row per star, or one array)
-- instead.
--
-- Like public.purchase_summary the reads are security invoker: the row-level security of
-- purchases, agents and reviews applies as it did to the app's reads, and each filters on the
-- caller itself (auth.uid()), so what a seller or an admin may also read does not count in their
-- own figures.

-- ---------------------------------------------------------------------------------------------
-- buyer_figures: the caller's completed purchases as the buyer (the overview's buyer cards and
-- Membership). Pending, failed and refunded purchases are not counted.
--   completed_count: completed purchases (Membership's "Purchases").
--   agents_owned: distinct agents among them.
--   total_spent: the sum of their amounts; total_saved: of their discount amounts (a purchase
--     without one counts 0). numeric(10, 2) summed exactly; 0 without a purchase.
--   completed_this_month: those made in the calendar month of `at_time` in `time_zone` (an IANA
--     name; one Postgres does not know is an error, 22023: the app asks again in UTC).
-- ---------------------------------------------------------------------------------------------
create function public.buyer_figures(time_zone text default 'UTC', at_time timestamptz default now())
returns table (
  completed_count bigint,
  agents_owned bigint,
  total_spent numeric,
  total_saved numeric,
  completed_this_month bigint
)
language sql
stable
security invoker
set search_path = ''
as $$
  select
    count(*),
    count(distinct p.agent_id),
    coalesce(sum(p.amount), 0),
    coalesce(sum(p.discount_amount), 0),
    count(*) filter (
      where date_trunc('month', p.created_at at time zone buyer_figures.time_zone)
        = date_trunc('month', buyer_figures.at_time at time zone buyer_figures.time_zone)
    )
  from public.purchases p
  where p.buyer_id = (select auth.uid())
    and p.status = 'completed'
$$;
revoke execute on function public.buyer_figures(text, timestamptz) from public, anon;
grant execute on function public.buyer_figures(text, timestamptz) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- seller_overview_figures: the overview's seller cards, of the caller's own agents and sales.
--   published_agents: the caller's agents that are published.
--   sales_count, revenue: the completed purchases of the caller's agents (seller_id), count and
--     sum of amounts (0 without one).
--   review_count, rating_sum: the reviews of every agent of the caller, whatever its status; the
--     app shows rating_sum / review_count rounded to one decimal (no rating without a review).
-- ---------------------------------------------------------------------------------------------
create function public.seller_overview_figures()
returns table (published_agents bigint, sales_count bigint, revenue numeric, review_count bigint, rating_sum bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select
    (select count(*) from public.agents a where a.seller_id = (select auth.uid()) and a.status = 'published'),
    sold.n,
    sold.amount,
    rated.n,
    rated.total
  from (
    select count(*) as n, coalesce(sum(p.amount), 0) as amount
    from public.purchases p
    where p.seller_id = (select auth.uid()) and p.status = 'completed'
  ) sold
  cross join (
    select count(*) as n, coalesce(sum(r.rating), 0)::bigint as total
    from public.reviews r
    join public.agents a on a.id = r.agent_id
    where a.seller_id = (select auth.uid())
  ) rated
$$;
revoke execute on function public.seller_overview_figures() from public, anon;
grant execute on function public.seller_overview_figures() to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- platform_overview_figures: the overview's admin cards (administrators only; anyone else is
-- refused, 42501, like platform_daily_figures).
--   user_count: every account; published_agents: every published agent.
--   revenue: the sum of every completed purchase's amount (0 without one).
--   purchases_since: completed purchases made at or after `since` (the app passes a week ago).
-- ---------------------------------------------------------------------------------------------
create function public.platform_overview_figures(since timestamptz)
returns table (user_count bigint, published_agents bigint, revenue numeric, purchases_since bigint)
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if not public.is_admin() then
    raise exception 'Platform figures are for administrators.' using errcode = '42501';
  end if;
  return query
  select
    (select count(*) from public.users),
    (select count(*) from public.agents a where a.status = 'published'),
    coalesce(sum(p.amount), 0::numeric),
    count(*) filter (where p.created_at >= platform_overview_figures.since)
  from public.purchases p
  where p.status = 'completed';
end
$$;
revoke execute on function public.platform_overview_figures(timestamptz) from public, anon;
grant execute on function public.platform_overview_figures(timestamptz) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- agent_rating_counts: how many reviews of the agent gave each rating, one row per rating given
-- (1 to 5, ascending; a rating nobody gave has no row). The agent page's distribution and the
-- number of its review pages. Reviews are public, so anon may call it too.
-- ---------------------------------------------------------------------------------------------
create function public.agent_rating_counts(agent uuid)
returns table (rating integer, review_count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select r.rating, count(*)
  from public.reviews r
  where r.agent_id = agent_rating_counts.agent
  group by r.rating
  order by r.rating
$$;
revoke execute on function public.agent_rating_counts(uuid) from public;
grant execute on function public.agent_rating_counts(uuid) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- delete_unsold_agents: when a seller deletes their account, their agents nobody bought (no
-- purchase in any status) are deleted and the sold ones stay for their buyers. The app used to
-- read the seller's purchases to list the sold agents (capped at 1,000 rows, so some were
-- missed) and then send them all in one `not.in.(…)` filter (past a few hundred ids, a URL too
-- long for the server): either way the delete failed and every unsold agent stayed. One
-- statement here instead. Returns the ids of the seller's agents that stay (their files stay,
-- the others' go). Service role only: the app calls it from the account deletion.
-- ---------------------------------------------------------------------------------------------
create function public.delete_unsold_agents(seller uuid)
returns uuid[]
language sql
volatile
security invoker
set search_path = ''
as $$
  with deleted as (
    delete from public.agents a
    where a.seller_id = delete_unsold_agents.seller
      and not exists (select 1 from public.purchases p where p.agent_id = a.id)
    returning a.id
  )
  -- The statement's snapshot still holds the deleted rows: leave them out.
  select coalesce(array_agg(a.id order by a.id), '{}')
  from public.agents a
  where a.seller_id = delete_unsold_agents.seller
    and a.id not in (select d.id from deleted d)
$$;
revoke execute on function public.delete_unsold_agents(uuid) from public, anon, authenticated;
grant execute on function public.delete_unsold_agents(uuid) to service_role;
