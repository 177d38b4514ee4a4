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
-- missed) and then send them all in one `not.in.(…)` filter (over HTTP, past a few hundred ids,
-- a URL too long for the server): either way the delete failed and every unsold agent stayed. One
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

-- ---------------------------------------------------------------------------------------------
-- Purchase History a page at a time (docs/decisions/023-paged-purchase-lists.md, amended by ADR
-- 026). public.purchase_history is a SQL function with a SET clause, so Postgres cannot inline
-- it: the Data API's `limit 24` and its count each built every purchase of the buyer with every
-- join of user_purchase_history (agent, seller profile, review, downloads), twice a page load.
-- Now the filters pick the matching purchases from the purchases table alone (the agent and the
-- seller's profile are looked up only when a search or category filter needs them), the page is
-- cut from those by its position, and only the page's rows are joined with the view.
--
--   purchase_history_matches(search, purchase_status, category): the caller's purchases as the
--     buyer under the filters, (id, created_at) only; the filters' one definition. Plain SQL,
--     neither SECURITY DEFINER nor with a SET clause, so that it is inlined into its callers.
--   purchase_history_page(…, page_size, page_offset): one page of it as user_purchase_history
--     rows, newest first (page_size 1 to 1,000, default 24; page_offset from 0).
--   purchase_summary(…): as before, plus matching_count, how many purchases match (what the
--     pages divide).
--   purchase_history(…): unchanged signature and answer (every matching row, newest first),
--     now through purchase_history_matches too.
--
-- The filters are purchase_history's: NULL or '' = no filter; search: agent name, description
-- or seller username contains it (a literal substring, public.like_substring); purchase_status:
-- the status; category: the agent's category. All security invoker: the row-level security of
-- purchases, agents and public_profiles applies as it did through the view.
-- ---------------------------------------------------------------------------------------------
create function public.purchase_history_matches(
  search text default null,
  purchase_status text default null,
  category text default null
)
returns table (id uuid, created_at timestamptz)
language sql
stable
as $$
  select p.id, p.created_at
  from public.purchases p
  where p.buyer_id = (select auth.uid())
    and (nullif(purchase_history_matches.purchase_status, '') is null
      or p.status = purchase_history_matches.purchase_status)
    and (nullif(purchase_history_matches.category, '') is null
      or exists (
        select 1 from public.agents a
        where a.id = p.agent_id and a.category = purchase_history_matches.category
      ))
    and (nullif(btrim(purchase_history_matches.search), '') is null
      or exists (
        select 1 from public.agents a
        where a.id = p.agent_id
          and (a.name ilike public.like_substring(purchase_history_matches.search)
            or a.description ilike public.like_substring(purchase_history_matches.search))
      )
      or exists (
        select 1 from public.public_profiles sp
        where sp.id = p.seller_id and sp.username ilike public.like_substring(purchase_history_matches.search)
      ))
$$;
revoke execute on function public.purchase_history_matches(text, text, text) from public, anon;
grant execute on function public.purchase_history_matches(text, text, text) to authenticated, service_role;

create function public.purchase_history_page(
  search text default null,
  purchase_status text default null,
  category text default null,
  page_size integer default 24,
  page_offset integer default 0
)
returns setof public.user_purchase_history
language sql
stable
security invoker
set search_path = ''
as $$
  select h.*
  from (
    select m.id, m.created_at
    from public.purchase_history_matches(
      purchase_history_page.search, purchase_history_page.purchase_status, purchase_history_page.category
    ) m
    order by m.created_at desc, m.id desc
    limit least(greatest(coalesce(purchase_history_page.page_size, 24), 1), 1000)
    offset greatest(coalesce(purchase_history_page.page_offset, 0), 0)
  ) page
  join public.user_purchase_history h on h.id = page.id
  order by page.created_at desc, page.id desc
$$;
revoke execute on function public.purchase_history_page(text, text, text, integer, integer) from public, anon;
grant execute on function public.purchase_history_page(text, text, text, integer, integer) to authenticated, service_role;

-- purchase_summary gains the filters and one column: matching_count, how many purchases pass
-- them (what the pages divide), so that a page load reads the page and the figures in two
-- requests. Its other columns stay the whole history's, whatever the filters (the header's). A
-- new argument list is a new function: the old one goes, and a call without arguments, as
-- before, gets the same columns as before plus matching_count (then every purchase).
drop function public.purchase_summary();
create function public.purchase_summary(
  search text default null,
  purchase_status text default null,
  category text default null
)
returns table (purchase_count bigint, total_spent numeric, categories text[], matching_count bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select
    count(*),
    coalesce(sum(p.amount) filter (where p.status = 'completed'), 0),
    coalesce(array_agg(distinct a.category) filter (where a.category is not null), '{}'),
    (select count(*) from public.purchase_history_matches(
      purchase_summary.search, purchase_summary.purchase_status, purchase_summary.category
    ))
  from public.purchases p
  left join public.agents a on a.id = p.agent_id
  where p.buyer_id = (select auth.uid())
$$;
revoke execute on function public.purchase_summary(text, text, text) from public, anon;
grant execute on function public.purchase_summary(text, text, text) to authenticated, service_role;

create or replace function public.purchase_history(
  search text default null,
  purchase_status text default null,
  category text default null
)
returns setof public.user_purchase_history
language sql
stable
set search_path = ''
as $$
  select h.*
  from public.purchase_history_matches(
    purchase_history.search, purchase_history.purchase_status, purchase_history.category
  ) m
  join public.user_purchase_history h on h.id = m.id
  order by m.created_at desc, m.id desc
$$;
