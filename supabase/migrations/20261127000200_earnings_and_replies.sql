-- Seller figures: a seller's earnings computed from their purchases,
-- and one public reply per review by the seller of the reviewed agent.
--
--   * public.seller_earnings(fee_percent, time_zone): the caller's own sales (seller_id =
--     auth.uid(), under row-level security: security invoker) summed overall, per agent and per
--     calendar month in `time_zone`. The platform fee's rate is passed in by the app, which states
--     it once (app/lib/fees.ts); the database holds no copy of it.
--       gross   = completed + refunded purchases (what buyers paid before refunds)
--       refunds = refunded purchases
--       fee     = the rate of each kept (completed) sale, rounded to the cent per sale
--       net     = gross - refunds - fee
--     Pending and failed purchases bring in nothing and are left out.
--   * public.review_replies: one reply per review (the review's id is the key), readable by
--     everyone, written only by the seller of the reviewed agent (row-level security:
--     public.is_review_seller). It goes with its review (on delete cascade), so an admin's
--     removal of a review (admin_remove_review) removes the reply too, which the audit row keeps.

-- ---------------------------------------------------------------------------------------------
-- Earnings
-- ---------------------------------------------------------------------------------------------
create or replace function public.seller_earnings(fee_percent numeric, time_zone text default 'UTC')
returns table (
  scope text,
  agent_id uuid,
  agent_name text,
  month date,
  sales_count bigint,
  gross numeric,
  refund_count bigint,
  refunds numeric,
  fee numeric,
  net numeric
)
language sql
stable
security invoker
set search_path = ''
as $$
  with sales as (
    select
      p.agent_id,
      (date_trunc('month', p.created_at at time zone seller_earnings.time_zone))::date as month,
      p.amount,
      p.status,
      case when p.status = 'completed'
        then round(p.amount * greatest(0, least(100, seller_earnings.fee_percent)) / 100, 2)
        else 0
      end as fee
    from public.purchases p
    where p.seller_id = (select auth.uid())
      and p.status in ('completed', 'refunded')
  )
  select
    case
      when grouping(s.agent_id) = 0 then 'agent'
      when grouping(s.month) = 0 then 'month'
      else 'total'
    end as scope,
    s.agent_id,
    min(a.name) as agent_name,
    s.month,
    count(s.amount) as sales_count,
    coalesce(sum(s.amount), 0) as gross,
    count(s.amount) filter (where s.status = 'refunded') as refund_count,
    coalesce(sum(s.amount) filter (where s.status = 'refunded'), 0) as refunds,
    coalesce(sum(s.fee), 0) as fee,
    coalesce(sum(s.amount) filter (where s.status = 'completed'), 0) - coalesce(sum(s.fee), 0) as net
  from sales s
  left join public.agents a on a.id = s.agent_id
  group by grouping sets ((s.agent_id), (s.month), ())
$$;

revoke execute on function public.seller_earnings(numeric, text) from public, anon;
grant execute on function public.seller_earnings(numeric, text) to authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Review replies
-- ---------------------------------------------------------------------------------------------
create table public.review_replies (
  review_id uuid primary key references public.reviews (id) on delete cascade,
  reply_text text not null
    constraint review_replies_reply_text_length check (char_length(btrim(reply_text)) between 1 and 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger review_replies_set_updated_at before update on public.review_replies
  for each row execute function public.set_updated_at();

-- Whether the signed-in user sells the agent the review is about. Security definer: it reads the
-- agent whatever its status (the caller's own agents are readable anyway; others' answer false).
create or replace function public.is_review_seller(target_review_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1
    from public.reviews r
    join public.agents a on a.id = r.agent_id
    where r.id = target_review_id and a.seller_id = (select auth.uid())
  )
$$;
revoke execute on function public.is_review_seller(uuid) from public, anon;
grant execute on function public.is_review_seller(uuid) to authenticated, service_role;

alter table public.review_replies enable row level security;
revoke insert, update, delete, truncate on public.review_replies from anon;
revoke truncate on public.review_replies from authenticated;

create policy "review_replies: anyone reads" on public.review_replies
  for select to anon, authenticated using (true);
create policy "review_replies: the agent's seller inserts" on public.review_replies
  for insert to authenticated with check (public.is_review_seller(review_id));
create policy "review_replies: the agent's seller updates" on public.review_replies
  for update to authenticated
  using (public.is_review_seller(review_id))
  with check (public.is_review_seller(review_id));
create policy "review_replies: the agent's seller deletes" on public.review_replies
  for delete to authenticated using (public.is_review_seller(review_id));
create policy "review_replies: admin deletes any" on public.review_replies
  for delete to authenticated using ((select public.is_admin()));

-- A reply stays with its review.
create or replace function public.guard_review_reply()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.review_id <> old.review_id then
    raise exception 'A reply cannot be moved to another review' using errcode = '22023';
  end if;
  return new;
end
$$;
create trigger review_replies_guard before update on public.review_replies
  for each row execute function public.guard_review_reply();
revoke execute on function public.guard_review_reply() from public, anon, authenticated;

-- ---------------------------------------------------------------------------------------------
-- Removing a review (same signature as migration 20261126000300): the reply goes with it (the
-- cascade), and the audit row keeps its text beside the review's.
-- ---------------------------------------------------------------------------------------------
create or replace function public.admin_remove_review(actor uuid, target uuid, reason text)
returns void
language plpgsql
set search_path = ''
as $$
declare
  review record;
  reply text := (select rr.reply_text from public.review_replies rr where rr.review_id = target);
begin
  delete from public.reviews r where r.id = target
  returning r.agent_id, r.buyer_id, r.rating, r.review_text into review;
  if not found then
    raise exception 'No such review' using errcode = 'PT404';
  end if;
  insert into public.audit_log (actor_id, action, target_type, target_id, reason, details)
  values (actor, 'review.removed', 'review', target, reason, jsonb_build_object(
    'agent_id', review.agent_id,
    'agent_name', (select a.name from public.agents a where a.id = review.agent_id),
    'author_id', review.buyer_id,
    'rating', review.rating,
    'text', review.review_text,
    'reply', reply
  ));
end
$$;
