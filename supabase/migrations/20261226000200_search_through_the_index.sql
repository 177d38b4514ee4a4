-- The search reads its documents through their GIN index (ADR 078).
--   * GIN indexes keep new entries in a "pending list" until VACUUM moves them into the index;
--     PGlite has no autovacuum, so after the benchmark's 10,000 agents every search read a
--     pending list of about 500 pages, and the index answered no faster than reading every
--     document. With fastupdate off an insert writes its entries straight into the index (a
--     listing is written rarely, searched often), and gin_clean_pending_list moves what waits.
--   * Under row-level security the planner may not evaluate `@@` (not leakproof) before the
--     policy, so for anon and authenticated it never read agent_search through the index.
--     private.listed_search_documents runs as its owner and applies the policy's own condition
--     (`listed`) itself: it gives exactly the rows the policy gives everyone (a listed agent's
--     document is what its page shows), through the index. catalogue_matches, and with it the
--     page and the counts, read it instead of the table. It lives in the schema `private`, which
--     the Data API does not expose (as Supabase advises for SECURITY DEFINER functions): called
--     directly with a tsquery of thousands of prefixes it held the database to the deadline,
--     while catalogue_matches gives it search_query's bounded query (200 characters, 12 words).
-- Over the benchmark's 10,000 agents, as anon: the match of a two-word query went from about
-- 4 ms to 1 ms, catalogue_search from 7-15 ms to 4-10 ms.
alter index public.agent_search_document_idx set (fastupdate = off);
alter index public.agent_search_words_idx set (fastupdate = off);
alter index public.agents_name_trgm_idx set (fastupdate = off);
alter index public.agents_description_trgm_idx set (fastupdate = off);
select gin_clean_pending_list('public.agent_search_document_idx'::regclass);
select gin_clean_pending_list('public.agent_search_words_idx'::regclass);
select gin_clean_pending_list('public.agents_name_trgm_idx'::regclass);
select gin_clean_pending_list('public.agents_description_trgm_idx'::regclass);

create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

create function private.listed_search_documents(query tsquery)
returns table (agent_id uuid, document tsvector)
language sql
stable
security definer
set search_path = ''
as $$
  select d.agent_id, d.document from public.agent_search d where d.listed and d.document @@ query
$$;
revoke execute on function private.listed_search_documents(tsquery) from public;
grant execute on function private.listed_search_documents(tsquery) to anon, authenticated, service_role;

-- As in migration 20261209000100, the documents from listed_search_documents.
create or replace function public.catalogue_matches(
  search text default null,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (agent_id uuid, search_rank real, category text)
language sql
stable
as $$
  with wanted as materialized (select public.search_query(catalogue_matches.search) as query)
  select a.id, null::real, a.category
  from public.agents a
  join public.agent_stats s on s.agent_id = a.id
  where nullif(btrim(catalogue_matches.search), '') is null
    and a.status = 'published'
    and not a.seller_banned
    and public.passes_catalogue_filters(
      a.category, a.price, s.review_count, s.avg_rating,
      catalogue_matches.category, catalogue_matches.max_price, catalogue_matches.min_rating
    )
  union all
  select a.id, public.search_rank(d.document, w.query), a.category
  from wanted w
  cross join lateral private.listed_search_documents(w.query) d
  join public.agents a on a.id = d.agent_id
  join public.agent_stats s on s.agent_id = a.id
  where nullif(btrim(catalogue_matches.search), '') is not null
    and a.status = 'published'
    and not a.seller_banned
    and public.passes_catalogue_filters(
      a.category, a.price, s.review_count, s.avg_rating,
      catalogue_matches.category, catalogue_matches.max_price, catalogue_matches.min_rating
    )
$$;
