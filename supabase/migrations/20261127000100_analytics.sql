-- Analytics: agent-page views, a seller's sales and
-- revenue per day and per agent, and the platform's figures per day. Days are UTC days.
--
--   * public.agent_views: one row per visitor, agent and UTC day. The visitor is the signed-in
--     user's id or the random id of an anonymous visitor's cookie (nothing else about them is
--     stored). Written only by the app's server through record_agent_view() (service role);
--     sellers read the views of their own agents, admins all of them.
--   * seller_daily_figures / seller_agent_figures: the caller's own sales (completed purchases:
--     refunded, pending and failed ones are not sales) and views over the last `days` UTC days.
--     SECURITY INVOKER: row-level security applies as well as the seller test.
--   * platform_daily_figures: users, sellers, agents, purchases, revenue and active users per
--     day, for administrators only (refused for anyone else); the dashboard overview's Platform
--     Insights are computed from it too.

-- ---------------------------------------------------------------------------------------------
-- Agent-page views
-- ---------------------------------------------------------------------------------------------
create table public.agent_views (
  agent_id uuid not null references public.agents (id) on delete cascade,
  day date not null,
  -- The signed-in user's id, or an anonymous visitor's random id (never an address or a name).
  visitor_id uuid not null,
  signed_in boolean not null,
  created_at timestamptz not null default now(),
  primary key (agent_id, day, visitor_id)
);
create index agent_views_day_idx on public.agent_views (day, agent_id);

alter table public.agent_views enable row level security;
revoke insert, update, delete, truncate on public.agent_views from anon, authenticated;
revoke all on public.agent_views from anon;
create policy "agent_views: seller reads own agents" on public.agent_views
  for select to authenticated
  using (exists (select 1 from public.agents a where a.id = agent_views.agent_id and a.seller_id = (select auth.uid())));
create policy "agent_views: admins read" on public.agent_views for select to authenticated using (public.is_admin());

-- Records that `visitor` saw the page of a published agent today (UTC), once per day; not when
-- the visitor is the agent's seller. Returns whether a new view was recorded. Service role only:
-- the app calls it after rendering the agent page.
create function public.record_agent_view(target_agent uuid, visitor uuid, signed_in boolean)
returns boolean
language sql
volatile
security invoker
set search_path = ''
as $$
  with added as (
    insert into public.agent_views (agent_id, day, visitor_id, signed_in)
    select a.id, (now() at time zone 'utc')::date, record_agent_view.visitor, record_agent_view.signed_in
    from public.agents a
    where a.id = record_agent_view.target_agent
      and a.status = 'published'
      and not a.seller_banned
      and a.seller_id <> record_agent_view.visitor
    on conflict do nothing
    returning 1
  )
  select exists (select 1 from added)
$$;
revoke execute on function public.record_agent_view(uuid, uuid, boolean) from public, anon, authenticated;
grant execute on function public.record_agent_view(uuid, uuid, boolean) to service_role;

-- ---------------------------------------------------------------------------------------------
-- The window: the last `days` UTC days, today included (1 to 366 days).
-- ---------------------------------------------------------------------------------------------
create function public.analytics_first_day(days integer)
returns date
language sql
stable
set search_path = ''
as $$
  select (now() at time zone 'utc')::date - (least(greatest(coalesce(analytics_first_day.days, 30), 1), 366) - 1)
$$;

-- ---------------------------------------------------------------------------------------------
-- A seller's figures (the caller's own agents and sales)
-- ---------------------------------------------------------------------------------------------
create function public.seller_daily_figures(days integer default 30)
returns table (day date, sales bigint, revenue numeric, views bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  with span as (
    select public.analytics_first_day(seller_daily_figures.days) + i as d
    from generate_series(0, (now() at time zone 'utc')::date - public.analytics_first_day(seller_daily_figures.days)) i
  ),
  sold as (
    select (p.created_at at time zone 'utc')::date as d, count(*) as n, sum(p.amount) as amount
    from public.purchases p
    where p.seller_id = (select auth.uid())
      and p.status = 'completed'
      and p.created_at >= (public.analytics_first_day(seller_daily_figures.days)::timestamp at time zone 'utc')
    group by 1
  ),
  seen as (
    select v.day as d, count(*) as n
    from public.agent_views v
    join public.agents a on a.id = v.agent_id
    where a.seller_id = (select auth.uid()) and v.day >= public.analytics_first_day(seller_daily_figures.days)
    group by 1
  )
  select span.d, coalesce(sold.n, 0), coalesce(sold.amount, 0), coalesce(seen.n, 0)
  from span
  left join sold on sold.d = span.d
  left join seen on seen.d = span.d
  order by span.d
$$;

create function public.seller_agent_figures(days integer default 30)
returns table (agent_id uuid, name text, status text, sales bigint, revenue numeric, views bigint)
language sql
stable
security invoker
set search_path = ''
as $$
  select a.id, a.name, a.status, coalesce(s.n, 0) as sales, coalesce(s.amount, 0) as revenue, coalesce(v.n, 0) as views
  from public.agents a
  left join (
    select p.agent_id, count(*) as n, sum(p.amount) as amount
    from public.purchases p
    where p.seller_id = (select auth.uid())
      and p.status = 'completed'
      and p.created_at >= (public.analytics_first_day(seller_agent_figures.days)::timestamp at time zone 'utc')
    group by 1
  ) s on s.agent_id = a.id
  left join (
    select av.agent_id, count(*) as n
    from public.agent_views av
    where av.day >= public.analytics_first_day(seller_agent_figures.days)
    group by 1
  ) v on v.agent_id = a.id
  where a.seller_id = (select auth.uid())
  order by revenue desc, sales desc, views desc, a.name, a.id
$$;

revoke execute on function public.seller_daily_figures(integer) from public, anon;
revoke execute on function public.seller_agent_figures(integer) from public, anon;
grant execute on function public.seller_daily_figures(integer) to authenticated, service_role;
grant execute on function public.seller_agent_figures(integer) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- The platform's figures per UTC day (administrators only)
--   new_users: accounts created; new_sellers: seller accounts by the day they became sellers
--   (accepting the seller terms; the sign-up day for sellers without it); new_agents: agents
--   published now, by the day they were created; purchases and revenue: completed purchases;
--   active_users: distinct accounts that bought, reviewed, downloaded or viewed an agent page.
-- ---------------------------------------------------------------------------------------------
create function public.platform_daily_figures(days integer default 30)
returns table (
  day date,
  new_users bigint,
  new_sellers bigint,
  new_agents bigint,
  purchases bigint,
  revenue numeric,
  active_users bigint
)
language plpgsql
stable
security invoker
set search_path = ''
as $$
#variable_conflict use_column
declare
  first_day date := public.analytics_first_day(platform_daily_figures.days);
  since timestamptz := first_day::timestamp at time zone 'utc';
begin
  if not public.is_admin() then
    raise exception 'Platform analytics are for administrators.' using errcode = '42501';
  end if;
  return query
  with span as (
    select first_day + i as d from generate_series(0, (now() at time zone 'utc')::date - first_day) i
  ),
  joined as (
    select (u.created_at at time zone 'utc')::date as d, count(*) as n
    from public.users u where u.created_at >= since group by 1
  ),
  sellers as (
    select (coalesce(u.seller_terms_accepted_at, u.created_at) at time zone 'utc')::date as d, count(*) as n
    from public.users u
    where u.user_type = 'seller' and coalesce(u.seller_terms_accepted_at, u.created_at) >= since
    group by 1
  ),
  listed as (
    select (a.created_at at time zone 'utc')::date as d, count(*) as n
    from public.agents a where a.status = 'published' and a.created_at >= since group by 1
  ),
  sold as (
    select (p.created_at at time zone 'utc')::date as d, count(*) as n, sum(p.amount) as amount
    from public.purchases p where p.status = 'completed' and p.created_at >= since group by 1
  ),
  activity as (
    select (p.created_at at time zone 'utc')::date as d, p.buyer_id as who from public.purchases p where p.created_at >= since
    union
    select (r.created_at at time zone 'utc')::date, r.buyer_id from public.reviews r where r.created_at >= since
    union
    select (dl.created_at at time zone 'utc')::date, dl.buyer_id from public.downloads dl where dl.created_at >= since
    union
    select v.day, v.visitor_id from public.agent_views v where v.signed_in and v.day >= first_day
  ),
  active as (select activity.d, count(distinct activity.who) as n from activity group by 1)
  select
    span.d,
    coalesce(joined.n, 0),
    coalesce(sellers.n, 0),
    coalesce(listed.n, 0),
    coalesce(sold.n, 0),
    coalesce(sold.amount, 0::numeric),
    coalesce(active.n, 0)
  from span
  left join joined on joined.d = span.d
  left join sellers on sellers.d = span.d
  left join listed on listed.d = span.d
  left join sold on sold.d = span.d
  left join active on active.d = span.d
  order by span.d;
end
$$;
revoke execute on function public.platform_daily_figures(integer) from public, anon;
grant execute on function public.platform_daily_figures(integer) to authenticated, service_role;
