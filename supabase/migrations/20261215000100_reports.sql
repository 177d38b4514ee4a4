-- Reports (ADR 068): sales, refunds, users and content over a date range, for admins whose
-- session meets the second-factor rule (anyone else: insufficient_privilege). One definition of
-- each report's rows serves the page (a page at a time: `skip`) and the CSV download (a thousand
-- rows at a time after the last one read: `after_at`, `after_id`), so a large range streams
-- without anyone holding every row.
--
-- The range is whole days in `time_zone` (the admin's), from the first day's midnight to the end
-- of the last. Each row is (at, id, fields): when it happened, its id, and its columns as JSON.
--   sales    purchases completed or later refunded, by when they were bought
--   refunds  refunded purchases, by when they were refunded
--   users    accounts, by when they signed up
--   content  agents listed and reviews written, by when they were created

create index if not exists purchases_created_at_id_idx on public.purchases (created_at, id);
create index if not exists purchases_refunded_at_id_idx on public.purchases (refunded_at, id) where status = 'refunded';
create index if not exists users_created_at_id_idx on public.users (created_at, id);
create index if not exists agents_created_at_id_idx on public.agents (created_at, id);
create index if not exists reviews_created_at_id_idx on public.reviews (created_at, id);

-- The checks every report call shares; answers the range as timestamps.
create function public.admin_report_range(report text, from_day date, to_day date, time_zone text)
returns tstzrange
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not (public.is_admin() and public.session_meets_mfa()) then
    raise exception 'Only an administrator generates reports' using errcode = '42501';
  end if;
  if report is null or report not in ('sales', 'refunds', 'users', 'content') then
    raise exception 'There is no report %', coalesce(report, 'without a name') using errcode = '22023';
  end if;
  if from_day is null or to_day is null or from_day > to_day then
    raise exception 'A report covers from one day to the same or a later one' using errcode = '22023';
  end if;
  -- An unknown time zone fails here with invalid_parameter_value (22023).
  return pg_catalog.tstzrange(
    pg_catalog.timezone(time_zone, from_day::timestamp),
    pg_catalog.timezone(time_zone, (to_day + 1)::timestamp),
    '[)'
  );
end
$$;
revoke execute on function public.admin_report_range(text, date, date, text) from public, anon, authenticated;

create function public.admin_report_rows(
  report text,
  from_day date,
  to_day date,
  time_zone text default 'UTC',
  after_at timestamptz default null,
  after_id uuid default null,
  skip integer default 0,
  max_rows integer default 100
)
returns table (at timestamptz, id uuid, fields jsonb)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  span tstzrange := public.admin_report_range(report, from_day, to_day, time_zone);
  lower_at timestamptz := pg_catalog.lower(span);
  upper_at timestamptz := pg_catalog.upper(span);
  first_row integer := least(greatest(coalesce(skip, 0), 0), 10000000);
  row_count integer := least(greatest(coalesce(max_rows, 100), 1), 1000);
  cursor_at timestamptz := coalesce(after_at, '-infinity'::timestamptz);
  cursor_id uuid := coalesce(after_id, '00000000-0000-0000-0000-000000000000'::uuid);
begin
  if report = 'sales' then
    return query
      select p.created_at, p.id, pg_catalog.jsonb_build_object(
        'agent', a.name, 'seller', s.username, 'buyer', b.username,
        'list_price', p.list_price, 'discount', p.discount_amount, 'amount', p.amount,
        'fee_percent', p.platform_fee_percent,
        'fee', pg_catalog.round(p.amount * p.platform_fee_percent / 100, 2),
        'status', p.status)
      from public.purchases p
      join public.agents a on a.id = p.agent_id
      left join public.users s on s.id = p.seller_id
      left join public.users b on b.id = p.buyer_id
      where p.status in ('completed', 'refunded')
        and p.created_at >= lower_at and p.created_at < upper_at
        and (p.created_at, p.id) > (cursor_at, cursor_id)
      order by p.created_at, p.id
      offset first_row limit row_count;
  elsif report = 'refunds' then
    return query
      select p.refunded_at, p.id, pg_catalog.jsonb_build_object(
        'bought_at', p.created_at, 'agent', a.name, 'seller', s.username, 'buyer', b.username,
        'amount', p.amount, 'refunded_by', r.username, 'reason', p.status_reason)
      from public.purchases p
      join public.agents a on a.id = p.agent_id
      left join public.users s on s.id = p.seller_id
      left join public.users b on b.id = p.buyer_id
      left join public.users r on r.id = p.refunded_by
      where p.status = 'refunded'
        and p.refunded_at >= lower_at and p.refunded_at < upper_at
        and (p.refunded_at, p.id) > (cursor_at, cursor_id)
      order by p.refunded_at, p.id
      offset first_row limit row_count;
  elsif report = 'users' then
    return query
      select u.created_at, u.id, pg_catalog.jsonb_build_object(
        'username', u.username, 'email', u.email, 'role', u.user_type,
        'banned', u.banned_at is not null,
        'purchases', (select pg_catalog.count(*) from public.purchases p where p.buyer_id = u.id and p.status = 'completed'))
      from public.users u
      where u.created_at >= lower_at and u.created_at < upper_at
        and (u.created_at, u.id) > (cursor_at, cursor_id)
      order by u.created_at, u.id
      offset first_row limit row_count;
  else
    return query
      select c.at, c.id, c.fields
      from (
        select a.created_at as at, a.id, pg_catalog.jsonb_build_object(
          'kind', 'agent', 'agent', a.name, 'author', s.username, 'status', a.status,
          'rating', null, 'note', a.moderation_reason) as fields
        from public.agents a
        left join public.users s on s.id = a.seller_id
        where a.created_at >= lower_at and a.created_at < upper_at
          and (a.created_at, a.id) > (cursor_at, cursor_id)
        union all
        select r.created_at, r.id, pg_catalog.jsonb_build_object(
          'kind', 'review', 'agent', a.name, 'author', b.username, 'status', null,
          'rating', r.rating, 'note', pg_catalog.left(r.review_text, 200))
        from public.reviews r
        join public.agents a on a.id = r.agent_id
        left join public.users b on b.id = r.buyer_id
        where r.created_at >= lower_at and r.created_at < upper_at
          and (r.created_at, r.id) > (cursor_at, cursor_id)
      ) c
      order by c.at, c.id
      offset first_row limit row_count;
  end if;
end
$$;
revoke execute on function public.admin_report_rows(text, date, date, text, timestamptz, uuid, integer, integer)
  from public, anon;
grant execute on function public.admin_report_rows(text, date, date, text, timestamptz, uuid, integer, integer)
  to authenticated, service_role;

-- A report's totals: its rows, and the sums it is read for.
create function public.admin_report_summary(report text, from_day date, to_day date, time_zone text default 'UTC')
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  span tstzrange := public.admin_report_range(report, from_day, to_day, time_zone);
  lower_at timestamptz := pg_catalog.lower(span);
  upper_at timestamptz := pg_catalog.upper(span);
  answer json;
begin
  if report = 'sales' then
    select pg_catalog.json_build_object(
      'rows', pg_catalog.count(*),
      'gross', coalesce(pg_catalog.sum(p.amount), 0),
      'fees', coalesce(pg_catalog.sum(pg_catalog.round(p.amount * p.platform_fee_percent / 100, 2)), 0),
      'refunded', pg_catalog.count(*) filter (where p.status = 'refunded'))
    into answer
    from public.purchases p
    where p.status in ('completed', 'refunded') and p.created_at >= lower_at and p.created_at < upper_at;
  elsif report = 'refunds' then
    select pg_catalog.json_build_object('rows', pg_catalog.count(*), 'amount', coalesce(pg_catalog.sum(p.amount), 0))
    into answer
    from public.purchases p
    where p.status = 'refunded' and p.refunded_at >= lower_at and p.refunded_at < upper_at;
  elsif report = 'users' then
    select pg_catalog.json_build_object(
      'rows', pg_catalog.count(*),
      'buyers', pg_catalog.count(*) filter (where u.user_type = 'buyer'),
      'sellers', pg_catalog.count(*) filter (where u.user_type = 'seller'),
      'admins', pg_catalog.count(*) filter (where u.user_type = 'admin'))
    into answer
    from public.users u
    where u.created_at >= lower_at and u.created_at < upper_at;
  else
    select pg_catalog.json_build_object(
      'rows', agents + reviews, 'agents', agents, 'reviews', reviews)
    into answer
    from (
      select
        (select pg_catalog.count(*) from public.agents a where a.created_at >= lower_at and a.created_at < upper_at) as agents,
        (select pg_catalog.count(*) from public.reviews r where r.created_at >= lower_at and r.created_at < upper_at) as reviews
    ) c;
  end if;
  return answer;
end
$$;
revoke execute on function public.admin_report_summary(text, date, date, text) from public, anon;
grant execute on function public.admin_report_summary(text, date, date, text) to authenticated, service_role;

-- Every generated report is written to the audit log (by the app, with the service role, once it
-- is shown or downloaded): which report, which days, shown or as CSV, and how many rows.
alter table public.audit_log drop constraint audit_log_action_check;
alter table public.audit_log add constraint audit_log_action_check check (action in (
  'user.role_changed', 'user.banned', 'user.unbanned', 'agent.unpublished', 'agent.restored', 'review.removed',
  'settings.changed', 'database.backed_up', 'report.generated'
));
alter table public.audit_log drop constraint audit_log_target_type_check;
alter table public.audit_log add constraint audit_log_target_type_check
  check (target_type in ('user', 'agent', 'review', 'settings', 'database', 'report'));
