-- The marketplace's search in one database call, and the catalogue's reads planned well
-- (ADR 064). Measured over the benchmark's 10,000 agents through the Data API, as anon:
--   * public.catalogue_search: the page of a search and its per-category counts in one call.
--     The search's tsquery is made once per request (it was made four times: twice for the
--     page, twice for the counts, 1 ms each and up to 15 ms with a typo to expand), the matches
--     are found once, and plpgsql keeps its statement's plan (the inlined page query cost about
--     9 ms to plan on every request).
--   * public.catalogue_matches gives each match's category, so the counts need no second read
--     of agents, and makes the tsquery once for both the match and the rank.
--   * agents.seller_id's statistics say what a marketplace looks like (about ten agents per
--     seller). With few sellers owning many agents (the benchmark's six sellers own 10,000),
--     ANALYZE estimated 1,679 agents per seller, and public_profiles' "does this user sell"
--     read every agent for each user who sells none (2 ms a user, on every catalogue page).
--     Likewise reviews.buyer_id (about two reviews per reviewer): its "has this user reviewed"
--     read every review for each user (1 ms a user).
--   * Typo candidates are first narrowed by fuzzystrmatch's levenshtein_less_equal (C, at most
--     twice the allowance: two neighbours swapped are two Levenshtein edits), so the exact
--     typo_distance (plpgsql) runs on a handful of words instead of 64: a misspelt word's
--     expansion went from about 7 ms to 3 ms over the benchmark's 11,000 words.
--   * public_profiles asks whether the viewer sold to a user only when someone is signed in.
create extension if not exists fuzzystrmatch with schema extensions;

alter table public.agents alter column seller_id set (n_distinct = -0.1);
alter table public.reviews alter column buyer_id set (n_distinct = -0.5);
analyze public.agents, public.reviews;

-- As before (migration 20261208000100), the candidates within twice the allowance in Levenshtein
-- edits (typo_distance decides).
create or replace function public.search_word_candidates(word text, most integer, how_many integer)
returns setof text
language sql
stable
set search_path = ''
as $$
  select w.word from public.search_words w
  where char_length(search_word_candidates.word) <= 40
    and char_length(w.word) between char_length(search_word_candidates.word) - least(greatest(most, 0), 2)
      and char_length(search_word_candidates.word) + least(greatest(most, 0), 2)
    and (left(w.word, 1) = left(search_word_candidates.word, 1)
      or right(w.word, 1) = right(search_word_candidates.word, 1))
    and extensions.levenshtein_less_equal(w.word, search_word_candidates.word, 2 * least(greatest(most, 0), 2))
      <= 2 * least(greatest(most, 0), 2)
  order by left(w.word, 2) = left(search_word_candidates.word, 2) desc, w.word
  limit least(greatest(how_many, 0), 64)
$$;

-- As before (migration 20261203000200), the buyers' EXISTS read only for a signed-in viewer.
create or replace view public.public_profiles as
select
  u.id,
  u.username,
  case when v.visible then u.profile_image_url end as profile_image_url,
  case when r.sells then 'seller' end as user_type,
  case when v.visible then u.created_at end as created_at,
  case when o.owner_or_trusted then u.first_name end as first_name,
  case when o.owner_or_trusted then u.last_name end as last_name,
  case when v.visible then u.bio end as bio,
  case when v.visible then u.website end as website,
  case when v.visible then u.location end as location,
  case when v.visible and (s.show_email or u.id = (select auth.uid())) then u.email end as email,
  case when v.visible and (s.show_phone or u.id = (select auth.uid())) then u.phone end as phone,
  v.visible and coalesce(pr.last_active_at > now() - interval '15 minutes', false) as is_online,
  case when v.visible then u.response_time_hours end as response_time_hours,
  case when v.visible then u.display_name end as display_name,
  case when v.visible then u.seller_pitch end as seller_pitch,
  coalesce(s.profile_visibility, 'public') as visibility,
  v.visible
from public.users u
left join public.user_settings s on s.user_id = u.id
left join public.user_presence pr on pr.user_id = u.id
cross join lateral (
  select
    coalesce(u.id = (select auth.uid()), false)
    or coalesce(s.profile_visibility, 'public') = 'public'
    or (s.profile_visibility = 'members' and (select auth.uid()) is not null) as visible
) v
cross join lateral (
  select
    coalesce(u.id = (select auth.uid()), false)
    or current_user not in ('anon', 'authenticated')
    or (select public.is_admin()) as owner_or_trusted
) o
cross join lateral (
  select u.user_type = 'seller' or exists (select 1 from public.agents a where a.seller_id = u.id) as sells
) r
where current_user not in ('anon', 'authenticated')
  or (select public.is_admin())
  or u.id = (select auth.uid())
  or r.sells
  or exists (select 1 from public.reviews rv where rv.buyer_id = u.id)
  or ((select auth.uid()) is not null
    and exists (select 1 from public.purchases p where p.buyer_id = u.id and p.seller_id = (select auth.uid())));

-- As before (migration 20261208000100), with the match's category; the tsquery is made once (a
-- materialized CTE read by the match and the rank). A new return type is a new function.
drop function public.catalogue_matches(text, text, numeric, numeric);
create function public.catalogue_matches(
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
  join public.agent_search d on d.document @@ w.query
  join public.agents a on a.id = d.agent_id
  join public.agent_stats s on s.agent_id = a.id
  where nullif(btrim(catalogue_matches.search), '') is not null
    and d.listed
    and a.status = 'published'
    and not a.seller_banned
    and public.passes_catalogue_filters(
      a.category, a.price, s.review_count, s.avg_rating,
      catalogue_matches.category, catalogue_matches.max_price, catalogue_matches.min_rating
    )
$$;
grant execute on function public.catalogue_matches(text, text, numeric, numeric) to anon, authenticated, service_role;

-- As before, the category from the matches.
create or replace function public.category_counts(
  search text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (category text, agent_count bigint)
language sql
stable
as $$
  select c.name as category, coalesce(m.agent_count, 0) as agent_count
  from public.categories c
  left join (
    select x.category, count(*) as agent_count
    from public.catalogue_matches(
      category_counts.search, null, category_counts.max_price, category_counts.min_rating
    ) x
    group by x.category
  ) m on m.category = c.name
  order by c.position, c.name
$$;

-- A search's page and its counts in one call: {"agents": [agents_with_stats rows with
-- search_rank, in the page's order], "counts": {category: matches}}. The counts are of every
-- category under the other filters (the page's category filters only the page), so they are
-- category_counts' and the page is catalogue_agents' under the same ORDER BY; the orders are the
-- marketplace's sorts (app/lib/marketplace-params.ts), each ending with the id. An unknown sort
-- is "relevance"; the page is at most 100 agents.
create function public.catalogue_search(
  search text,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null,
  sort text default 'relevance',
  page_from integer default 0,
  page_size integer default 24
)
returns json
language plpgsql
stable
-- One plan kept for every call: the search is a parameter, and catalogue_matches' branches are
-- chosen when it runs. Planned per call, the statement cost more than it took to run.
set plan_cache_mode = force_generic_plan
as $$
declare
  result json;
begin
  with matches as materialized (
    select m.agent_id, m.search_rank, m.category
    from public.catalogue_matches(
      catalogue_search.search, null, catalogue_search.max_price, catalogue_search.min_rating
    ) m
  ),
  -- Each match's place in the page's order: the order's columns are read for every match, the
  -- page's rows (agents_with_stats, with the seller's profile) for the page alone.
  ranked as (
    select m.agent_id, m.search_rank, row_number() over (
      order by
        case when catalogue_search.sort not in ('newest', 'popular', 'price-low', 'price-high', 'rating')
          then m.search_rank end desc nulls last,
        case when catalogue_search.sort not in ('newest', 'price-low', 'price-high', 'rating')
          then st.purchase_count end desc,
        case when catalogue_search.sort = 'newest' then a.created_at end desc,
        case when catalogue_search.sort = 'price-low' then a.price end asc,
        case when catalogue_search.sort = 'price-high' then a.price end desc,
        -- An unrated agent (no reviews) has no rating, after every rated one (agents_with_stats).
        case when catalogue_search.sort = 'rating' and st.review_count > 0 then st.avg_rating end desc nulls last,
        a.id
    ) as position
    from matches m
    join public.agents a on a.id = m.agent_id
    join public.agent_stats st on st.agent_id = m.agent_id
    where catalogue_search.category is null or m.category = catalogue_search.category
  ),
  page as (
    select s.*, r.search_rank, r.position
    from ranked r
    join public.agents_with_stats s on s.id = r.agent_id
    where r.position > greatest(coalesce(catalogue_search.page_from, 0), 0)
      and r.position <= greatest(coalesce(catalogue_search.page_from, 0), 0)
        + least(greatest(coalesce(catalogue_search.page_size, 24), 0), 100)
  )
  select json_build_object(
    'agents', coalesce((select json_agg(p order by p.position) from page p), '[]'::json),
    'counts', coalesce(
      (select json_object_agg(c.category, c.agent_count) from (
        select m.category, count(*) as agent_count from matches m group by m.category
      ) c),
      '{}'::json
    )
  ) into result;
  return result;
end;
$$;
grant execute on function public.catalogue_search(text, text, numeric, numeric, text, integer, integer)
  to anon, authenticated, service_role;
