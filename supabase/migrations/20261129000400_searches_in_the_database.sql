-- Two admin searches picked in the database instead of by a list of ids sent in the URL
-- (docs/decisions/041-seller-lists-paged-no-ids-in-urls.md).
--
-- The Disputes search (/dashboard/disputes: purchases whose agent name or buyer username contains
-- the words, app/server/sales.server.ts) read the ids of up to 500 matching agents and 500 matching
-- buyers and sent them all in one `or=(agent_id.in.(…),buyer_id.in.(…))` URL: past about 430 ids
-- the URL is longer than an HTTP server takes (16 KB in Node; hosted Supabase refuses such URLs
-- too) and the page was a 503, and past 500 matches the list was cut. Content Moderation's review
-- search (reviews whose text or agent name contains the words, app/server/admin.server.ts) sent
-- the ids of up to 200 matching agents: past 200 their reviews were missing.
--
-- Each function answers the matching rows with the agent's name; the Data API orders, pages and
-- counts them like a table (`rpc/purchase_search?search=…&order=…`, Prefer: count=exact).
-- The words are a literal substring (public.like_substring), matched case-insensitively.
-- Matching agents and buyers are looked up first and the rows kept by their ids (hashed semi-joins:
-- on 6,500 purchases 4–8 ms, against 29–50 ms for comparing the joined names row by row).
-- Security invoker, plain SQL without a SET clause so that Postgres inlines them into the Data
-- API's query (like purchase_history_matches): the row-level security of purchases, reviews and
-- agents applies as it did to the app's reads (an admin reads every purchase, a seller their
-- sales, a buyer their purchases); usernames come from public_profiles, as before.

create function public.purchase_search(search text)
returns table (
  id uuid,
  agent_id uuid,
  buyer_id uuid,
  seller_id uuid,
  amount numeric,
  status text,
  status_reason text,
  created_at timestamptz,
  agent_name text
)
language sql
stable
as $$
  select p.id, p.agent_id, p.buyer_id, p.seller_id, p.amount, p.status, p.status_reason, p.created_at, a.name
  from public.purchases p
  left join public.agents a on a.id = p.agent_id
  where p.agent_id in (
      select m.id from public.agents m where m.name ilike public.like_substring(purchase_search.search))
    or p.buyer_id in (
      select b.id from public.public_profiles b where b.username ilike public.like_substring(purchase_search.search))
$$;
revoke execute on function public.purchase_search(text) from public, anon;
grant execute on function public.purchase_search(text) to authenticated, service_role;

create function public.review_search(search text)
returns table (
  id uuid,
  agent_id uuid,
  buyer_id uuid,
  rating integer,
  review_text text,
  created_at timestamptz,
  agent_name text
)
language sql
stable
as $$
  select r.id, r.agent_id, r.buyer_id, r.rating, r.review_text, r.created_at, a.name
  from public.reviews r
  left join public.agents a on a.id = r.agent_id
  where r.review_text ilike public.like_substring(review_search.search)
    or r.agent_id in (
      select m.id from public.agents m where m.name ilike public.like_substring(review_search.search))
$$;
revoke execute on function public.review_search(text) from public, anon;
grant execute on function public.review_search(text) to authenticated, service_role;
