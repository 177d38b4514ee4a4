-- Active users over a period, each counted once. platform_daily_figures counts the users active on
-- each UTC day; added up over 30 days, one person active on ten days counted ten times (a sum of
-- 103 on a platform of 19 users). The period's figure is its own count of distinct users, from the
-- same activity as the days: platform_activity, which platform_daily_figures now reads too, so the
-- two never define "active" differently.

-- Who was active on which UTC day since first_day: bought (any status), reviewed, downloaded, or
-- viewed an agent page signed in. One row per user and day. Administrators only.
create function public.platform_activity(first_day date)
returns table (day date, user_id uuid)
language plpgsql
stable
security invoker
set search_path = ''
as $$
declare
  since timestamptz := first_day::timestamp at time zone 'utc';
begin
  if not public.is_admin() then
    raise exception 'Platform analytics are for administrators.' using errcode = '42501';
  end if;
  return query
  select (p.created_at at time zone 'utc')::date, p.buyer_id from public.purchases p
    where p.created_at >= since and p.buyer_id is not null
  union
  select (r.created_at at time zone 'utc')::date, r.buyer_id from public.reviews r
    where r.created_at >= since and r.buyer_id is not null
  union
  select (dl.created_at at time zone 'utc')::date, dl.buyer_id from public.downloads dl
    where dl.created_at >= since and dl.buyer_id is not null
  union
  select v.day, v.visitor_id from public.agent_views v where v.signed_in and v.day >= first_day;
end
$$;
revoke execute on function public.platform_activity(date) from public, anon;
grant execute on function public.platform_activity(date) to authenticated, service_role;

-- The same figures per day as before (20261127000100_analytics.sql), active users from platform_activity.
create or replace function public.platform_daily_figures(days integer default 30)
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
  active as (
    select a.day as d, count(*) as n from public.platform_activity(first_day) a group by 1
  )
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

-- The distinct users active over the last `days` UTC days (today included): the Platform
-- Analytics page's "Active users (30 days)". Administrators only (platform_activity refuses others).
create function public.platform_active_users(days integer default 30)
returns bigint
language sql
stable
security invoker
set search_path = ''
as $$
  select count(distinct a.user_id)
  from public.platform_activity(public.analytics_first_day(platform_active_users.days)) a
$$;
revoke execute on function public.platform_active_users(integer) from public, anon;
grant execute on function public.platform_active_users(integer) to authenticated, service_role;
