-- Two admin searches picked in the database instead of by a list of ids in the URL. First the
-- Disputes search (/dashboard/disputes: purchases whose agent name or buyer username contains
-- the words, app/server/sales.server.ts)
-- (docs/decisions/026-aggregates-in-the-database.md, amendment). The app used to read the ids of
-- up to 500 matching agents and 500 matching buyers and send them all in one
-- `or=(agent_id.in.(…),buyer_id.in.(…))` URL: past about 430 ids the URL is longer than an HTTP
-- server takes (16 KB in Node; hosted Supabase refuses such URLs too) and the page was a 503, and
-- past 500 matches the list was cut.
--
-- Each purchase with its agent's name and its buyer's username, to filter with one
-- `or=(agent_name.ilike.…,buyer_username.ilike.…)`. Security invoker: the row-level security of
-- purchases (an admin reads every purchase, a seller their sales, a buyer their purchases) and of
-- agents applies as it did to the app's reads; usernames come from public_profiles, as before.
create view public.purchase_search with (security_invoker = true) as
select
  p.id,
  p.agent_id,
  p.buyer_id,
  p.seller_id,
  p.amount,
  p.status,
  p.status_reason,
  p.created_at,
  a.name as agent_name,
  b.username as buyer_username
from public.purchases p
left join public.agents a on a.id = p.agent_id
left join public.public_profiles b on b.id = p.buyer_id;
revoke all on public.purchase_search from anon;
revoke insert, update, delete, truncate on public.purchase_search from authenticated;
grant select on public.purchase_search to authenticated, service_role;

-- The review search of Content Moderation (/dashboard/moderation: reviews whose text or agent
-- name contains the words, app/server/admin.server.ts), the same way: it sent the ids of up to
-- 200 matching agents in the URL, so past 200 matching agents their reviews were missing. Each
-- review with its agent's name, read with the caller's row-level security (security invoker).
create view public.review_search with (security_invoker = true) as
select
  r.id,
  r.agent_id,
  r.buyer_id,
  r.rating,
  r.review_text,
  r.created_at,
  a.name as agent_name
from public.reviews r
left join public.agents a on a.id = r.agent_id;
revoke all on public.review_search from anon;
revoke insert, update, delete, truncate on public.review_search from authenticated;
grant select on public.review_search to authenticated, service_role;
