-- Search that finds what people mean (ADR 062). One definition, used by the marketplace page, its
-- category counts, the suggestions and the Data API alike:
--   * public.agent_search holds each agent's search document: a tsvector of its name (weight A),
--     category, features and seller (B: the username always, the display name only where the
--     seller's profile is public, as the cards show it) and description (C), each field both
--     stemmed ('english': "writers" finds "writer") and as typed ('simple': for prefixes),
--     accents folded (unaccent: "resume" finds "résumé"). Triggers keep it in step with agents,
--     users and user_settings; `listed` says whether the marketplace lists the agent.
--   * public.search_words is the vocabulary of the listed agents, kept by a trigger on
--     agent_search (a word goes when no listed agent uses it any more): the typo candidates and
--     "Did you mean" come from it. It holds no counts: a count updated per agent left a dead row
--     version per word and agent, and seeding 10,000 agents slowed to minutes.
--   * public.search_query(text) turns what a person typed into a tsquery: every word is required,
--     in any order; "a quoted phrase" is a phrase; -word excludes; the last word also matches as
--     a prefix; an agent noun also matches its verb ("writer": "writes"); a word of 5 letters or more that no listed agent uses also matches the
--     catalogue's words one typo away (two from 9 letters: insertion, deletion, substitution or
--     two neighbours swapped), among the words sharing its first or last letter, checked by
--     public.typo_distance.
--     Any text is safe: words come from the text-search parser, never from SQL or tsquery syntax.
--   * public.catalogue_agents (the page) and public.category_counts (the counts) filter with it;
--     catalogue_agents gains search_rank, the "Best match" order.
create extension if not exists unaccent with schema extensions;

-- ---------------------------------------------------------------------------------------------
-- Text as search sees it: lower case, accents folded. The dictionary is named with its schema
-- (the one-argument unaccent looks it up on the search_path, which these functions leave empty).
-- ---------------------------------------------------------------------------------------------
create function public.search_text(value text)
returns text
language sql
stable
parallel safe
set search_path = ''
as $$
  select lower(extensions.unaccent('extensions.unaccent'::regdictionary, coalesce(value, '')))
$$;

-- ---------------------------------------------------------------------------------------------
-- The documents
-- ---------------------------------------------------------------------------------------------
create table public.agent_search (
  agent_id uuid primary key references public.agents (id) on delete cascade,
  -- Published and its seller not banned: what the marketplace lists.
  listed boolean not null,
  seller_username text,
  -- How the seller is named to everyone (the display name only where their profile is public),
  -- and both names as search sees them (the creators' suggestions match them).
  seller_name text,
  seller_terms text not null default '',
  document tsvector not null,
  -- The distinct words of the document as typed (the vocabulary, search_words, is theirs).
  words text[] not null default '{}'
);
create index agent_search_document_idx on public.agent_search using gin (document) where listed;
create index agent_search_words_idx on public.agent_search using gin (words) where listed;

alter table public.agent_search enable row level security;
-- What a listed agent's page already shows, so anyone may read it; drafts stay with their seller.
create policy "agent_search: anyone reads listed agents" on public.agent_search
  for select to anon, authenticated using (listed);
revoke insert, update, delete, truncate on public.agent_search from anon, authenticated;
select public.require_second_factor('public.agent_search');

create table public.search_words (
  word text primary key
);

alter table public.search_words enable row level security;
create policy "search_words: anyone reads" on public.search_words for select to anon, authenticated using (true);
revoke insert, update, delete, truncate on public.search_words from anon, authenticated;
select public.require_second_factor('public.search_words');

-- (Re)builds one agent's document from its row, its seller and the seller's privacy setting.
create function public.refresh_agent_search(agent uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  source record;
  seller_names text;
  every_word text;
begin
  select
    a.id,
    a.status = 'published' and not a.seller_banned as listed,
    public.search_text(a.name) as name,
    public.search_text(a.category || ' ' || array_to_string(a.features, ' ')) as about,
    public.search_text(a.description) as description,
    u.username,
    case when coalesce(st.profile_visibility, 'public') = 'public' then nullif(btrim(u.display_name), '') end
      as display_name
  into source
  from public.agents a
  left join public.users u on u.id = a.seller_id
  left join public.user_settings st on st.user_id = a.seller_id
  where a.id = agent;
  if not found then
    delete from public.agent_search where agent_id = agent;
    return;
  end if;

  seller_names := public.search_text(concat_ws(' ', source.username, source.display_name));
  every_word := concat_ws(' ', source.name, source.about, seller_names, source.description);
  insert into public.agent_search as s (agent_id, listed, seller_username, seller_name, seller_terms, document, words)
  values (
    source.id,
    source.listed,
    source.username,
    coalesce(source.display_name, source.username),
    seller_names,
    setweight(to_tsvector('english', source.name) || to_tsvector('simple', source.name), 'A')
      || setweight(
        to_tsvector('english', source.about) || to_tsvector('simple', source.about) || to_tsvector('english', seller_names) || to_tsvector('simple', seller_names),
        'B'
      )
      || setweight(to_tsvector('english', source.description) || to_tsvector('simple', source.description), 'C'),
    array(
      select w from unnest(tsvector_to_array(to_tsvector('simple', every_word))) w
      where char_length(w) between 2 and 40
    )
  )
  on conflict (agent_id) do update set
    listed = excluded.listed,
    seller_username = excluded.seller_username,
    seller_name = excluded.seller_name,
    seller_terms = excluded.seller_terms,
    document = excluded.document,
    words = excluded.words;
end;
$$;
revoke execute on function public.refresh_agent_search(uuid) from public, anon, authenticated;

create function public.agent_search_on_agent_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform public.refresh_agent_search(new.id);
  return null;
end;
$$;
revoke execute on function public.agent_search_on_agent_change() from public, anon, authenticated;

create trigger agent_search_refresh
  after insert or update of name, description, category, features, seller_id, status, seller_banned
  on public.agents
  for each row execute function public.agent_search_on_agent_change();

-- A seller's names or privacy setting changed: every one of their agents' documents.
create function public.agent_search_on_seller_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  seller uuid;
  agent uuid;
begin
  -- Each branch names only its own table's column (a record has only its table's fields).
  if tg_table_name = 'users' then
    seller := new.id;
  else
    seller := new.user_id;
  end if;
  for agent in select a.id from public.agents a where a.seller_id = seller loop
    perform public.refresh_agent_search(agent);
  end loop;
  return null;
end;
$$;
revoke execute on function public.agent_search_on_seller_change() from public, anon, authenticated;

create trigger agent_search_refresh_seller
  after update of username, display_name on public.users
  for each row
  when (old.username is distinct from new.username or old.display_name is distinct from new.display_name)
  execute function public.agent_search_on_seller_change();

create trigger agent_search_refresh_privacy_insert
  after insert on public.user_settings
  for each row execute function public.agent_search_on_seller_change();

create trigger agent_search_refresh_privacy
  after update of profile_visibility on public.user_settings
  for each row
  when (old.profile_visibility is distinct from new.profile_visibility)
  execute function public.agent_search_on_seller_change();

-- The vocabulary holds the words of listed agents: a new word comes in, a word no listed agent
-- uses any more goes (this runs after the row changed, so the check sees the new state).
create function public.search_words_on_document_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') and new.listed then
    -- Most words are known already: look before inserting (a conflict costs more than a lookup).
    insert into public.search_words (word)
    select x from unnest(new.words) x
    where not exists (select 1 from public.search_words w where w.word = x)
    on conflict (word) do nothing;
  end if;
  if tg_op in ('UPDATE', 'DELETE') and old.listed then
    delete from public.search_words w
    where w.word = any (old.words)
      and not exists (select 1 from public.agent_search d where d.listed and d.words @> array[w.word]);
  end if;
  return null;
end;
$$;
revoke execute on function public.search_words_on_document_change() from public, anon, authenticated;

create trigger search_words_count
  after insert or update or delete on public.agent_search
  for each row execute function public.search_words_on_document_change();

-- The documents of the agents that exist already.
select public.refresh_agent_search(a.id) from public.agents a;

-- ---------------------------------------------------------------------------------------------
-- Reading a query
-- ---------------------------------------------------------------------------------------------
-- Optimal string alignment distance (Levenshtein with two neighbours swapped counting as one),
-- given up past `most` (then most + 1): only a few short candidate words are ever compared. Like
-- every function here it is callable through the Data API, so its work is bounded whatever the
-- arguments: words over 40 characters (the vocabulary's longest) are simply far apart, and
-- `most` is at most 2.
create function public.typo_distance(a text, b text, most integer)
returns integer
language plpgsql
immutable
strict
parallel safe
set search_path = ''
as $$
declare
  la integer := char_length(a);
  lb integer := char_length(b);
  before_previous integer[];
  previous integer[];
  current integer[];
  best integer;
  cost integer;
  cell integer;
begin
  most := least(greatest(most, 0), 2);
  if a = b then
    return 0;
  end if;
  if la > 40 or lb > 40 or abs(la - lb) > most then
    return most + 1;
  end if;
  previous := array(select generate_series(0, lb));
  before_previous := previous;
  for i in 1..la loop
    current := array[i] || array_fill(0, array[lb]);
    best := i;
    for j in 1..lb loop
      cost := case when substr(a, i, 1) = substr(b, j, 1) then 0 else 1 end;
      cell := least(previous[j + 1] + 1, current[j] + 1, previous[j] + cost);
      if i > 1 and j > 1 and substr(a, i, 1) = substr(b, j - 1, 1) and substr(a, i - 1, 1) = substr(b, j, 1) then
        cell := least(cell, before_previous[j - 1] + 1);
      end if;
      current[j + 1] := cell;
      best := least(best, cell);
    end loop;
    if best > most then
      return most + 1;
    end if;
    before_previous := previous;
    previous := current;
  end loop;
  return least(previous[lb + 1], most + 1);
end;
$$;

-- The typo candidates for `word`: catalogue words whose length is within `most` of its own and
-- that share its first or its last letter (one typo cannot change both ends of a word of five
-- letters or more), at most `how_many` (up to 64), those sharing the first two letters first.
-- The callers keep those within `most` edits (typo_distance). Plain comparisons, no trigram
-- distance: PGlite's pg_trgm answered a distance computed by an API role with "bad buffer ID"
-- and then held its thread. Bounded whatever the arguments: words over 40 characters have none.
create function public.search_word_candidates(word text, most integer, how_many integer)
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
  order by left(w.word, 2) = left(search_word_candidates.word, 2) desc, w.word
  limit least(greatest(how_many, 0), 64)
$$;
grant execute on function public.search_word_candidates(text, integer, integer) to anon, authenticated, service_role;

-- Every word that begins with `word`, as a tsquery (the word quoted: nothing in it is syntax).
create function public.search_prefix(word text)
returns tsquery
language sql
immutable
parallel safe
set search_path = ''
as $$
  -- At most 40 characters (the vocabulary's longest word): the Data API exposes this function.
  select to_tsquery('simple', '''' || replace(replace(left(word, 40), '\', '\\'), '''', '''''') || ''':*')
$$;

-- One typed word as a tsquery: its stem, the catalogue's words one typo away when it is unknown
-- and long enough, and (the last word typed) anything it begins. NULL for a stop word.
create function public.search_word_query(word text, as_prefix boolean)
returns tsquery
language plpgsql
stable
parallel safe
set search_path = ''
as $$
declare
  -- A word is at most 40 characters here (the vocabulary's longest; search_query gives no more,
  -- and the Data API exposes this function to any text).
  term tsquery := plainto_tsquery('english', left(word, 40));
  most integer := case when char_length(word) >= 9 then 2 when char_length(word) >= 5 then 1 else 0 end;
  candidate text;
begin
  if numnode(term) = 0 then
    return null;
  end if;
  if as_prefix then
    term := term || public.search_prefix(word);
  end if;
  -- An agent noun finds its verb and its other forms: "writer" finds "writes" and "writing",
  -- "editor" "editing" (the English stemmer keeps -er and -or words apart from their verbs).
  if char_length(word) >= 6 and right(word, 2) in ('er', 'or') then
    term := term || public.search_prefix(left(word, -2));
  end if;
  if most > 0 and not exists (select 1 from public.search_words w where w.word = search_word_query.word) then
    for candidate in select c from public.search_word_candidates(word, most, 64) c loop
      if public.typo_distance(word, candidate, most) <= most then
        term := term || plainto_tsquery('english', candidate);
      end if;
    end loop;
  end if;
  return term;
end;
$$;

-- What a person typed as a tsquery (see the top of this file). NULL: no search (blank); an empty
-- tsquery: nothing to look for (only stop words or symbols), which matches no agent.
create function public.search_query(search text)
returns tsquery
language plpgsql
stable
parallel safe
set search_path = ''
as $$
declare
  -- At most 200 characters and 12 words are read: enough for any real query, and bounded work.
  normalized text := public.search_text(left(search, 200));
  segments text[];
  tokens text[];
  words text[];
  token text;
  negated boolean;
  term tsquery;
  result tsquery;
  word_count integer := 0;
begin
  if btrim(normalized) = '' then
    return null;
  end if;
  segments := string_to_array(normalized, '"');
  for i in 1..cardinality(segments) loop
    -- Between two quotes: a phrase. After an unclosed quote: words, as if it were not there.
    if i % 2 = 0 and i < cardinality(segments) then
      term := phraseto_tsquery('english', segments[i]);
      if numnode(term) > 0 then
        result := case when result is null then term else result && term end;
        word_count := word_count + 1;
      end if;
      continue;
    end if;
    tokens := regexp_split_to_array(btrim(segments[i]), '\s+');
    for k in 1..cardinality(tokens) loop
      token := tokens[k];
      negated := char_length(token) > 1 and left(token, 1) = '-';
      if negated then
        token := substr(token, 2);
      end if;
      words := array(
        select l.lexeme from unnest(to_tsvector('simple', token)) l order by l.positions[1], l.lexeme
      );
      for w in 1..coalesce(cardinality(words), 0) loop
        exit when word_count >= 12;
        term := public.search_word_query(
          words[w],
          -- The last word typed, unless a quote or a minus sign ends the query.
          not negated and i = cardinality(segments) and k = cardinality(tokens) and w = cardinality(words)
            and right(normalized, 1) <> '"'
        );
        continue when term is null;
        word_count := word_count + 1;
        if negated then
          term := !!term;
        end if;
        result := case when result is null then term else result && term end;
      end loop;
    end loop;
  end loop;
  return coalesce(result, ''::tsquery);
end;
$$;

-- How well an agent's document matches ("Best match"): an agent whose name alone has every word
-- first (1 more: "brand voice" puts Brand Voice Guardian before the agents with a brand voice
-- setting), then ts_rank: every word by the field it stands in (name 1, category, features and
-- seller 0.4, description 0.2) and how often, the document's length damped (normalisation 1).
-- ts_rank is given the query or'ed with itself (the same words): for a query whose top is AND it
-- scores only how near the words stand to each other, which in a document of fields laid end to
-- end says where the fields lie rather than how well they match ("sales calls" scored a word of
-- the category with one of the description next to 0), and a prefix counts by only one of the
-- words it begins (the last in the alphabet: "seo audit" scored SEO Sentinel by "audits", 0).
create function public.search_rank(document tsvector, query tsquery)
returns real
language sql
immutable
parallel safe
set search_path = ''
as $$
  select ts_rank('{0.1, 0.2, 0.4, 1.0}', document, query || query, 1)
    + case when ts_filter(document, '{a}') @@ query then 1 else 0 end
$$;

-- ---------------------------------------------------------------------------------------------
-- The catalogue, its counts
-- ---------------------------------------------------------------------------------------------
-- Whether an agent's price and rating pass the filters (NULL: no filter): the one definition,
-- inlined into every reader below. An agent nobody has rated has no rating and fails a minimum.
create function public.passes_catalogue_filters(
  agent_category text,
  agent_price numeric,
  agent_review_count integer,
  agent_avg_rating numeric,
  category text,
  max_price numeric,
  min_rating numeric
)
returns boolean
language sql
immutable
as $$
  select (passes_catalogue_filters.category is null or agent_category = passes_catalogue_filters.category)
    and (passes_catalogue_filters.max_price is null or agent_price <= passes_catalogue_filters.max_price)
    and (passes_catalogue_filters.min_rating is null
      or (agent_review_count > 0 and agent_avg_rating >= passes_catalogue_filters.min_rating))
$$;
grant execute on function public.passes_catalogue_filters(text, numeric, integer, numeric, text, numeric, numeric)
  to anon, authenticated, service_role;

-- The listed agents that match the search and pass the filters, with how well they match: the
-- counts (category_counts) and the page (catalogue_agents) both read this for a search, so they
-- always agree. The documents are found through their GIN index (the tsquery is an InitPlan,
-- computed once). Without a search (NULL or blank) every listed agent that passes the filters.
create function public.catalogue_matches(
  search text default null,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (agent_id uuid, search_rank real)
language sql
stable
as $$
  select a.id, null::real
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
  select a.id, public.search_rank(d.document, (select public.search_query(catalogue_matches.search)))
  from public.agent_search d
  join public.agents a on a.id = d.agent_id
  join public.agent_stats s on s.agent_id = a.id
  where nullif(btrim(catalogue_matches.search), '') is not null
    and d.listed
    and d.document @@ (select public.search_query(catalogue_matches.search))
    and a.status = 'published'
    and not a.seller_banned
    and public.passes_catalogue_filters(
      a.category, a.price, s.review_count, s.avg_rating,
      catalogue_matches.category, catalogue_matches.max_price, catalogue_matches.min_rating
    )
$$;
grant execute on function public.catalogue_matches(text, text, numeric, numeric) to anon, authenticated, service_role;

-- The page's rows without a search: the listed agents of agents_with_stats that pass the
-- filters. The marketplace reads this when nothing is searched: the page's ORDER BY and LIMIT
-- reach the sort indexes (about 3 ms over 10,000 agents, where a union with the search branch
-- sorted every listed agent: about 20 ms).
create function public.catalogue_listing(
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns setof public.agents_with_stats
language sql
stable
as $$
  select s.*
  from public.agents_with_stats s
  where s.status = 'published'
    and exists (select 1 from public.agents a where a.id = s.id and not a.seller_banned)
    and public.passes_catalogue_filters(
      s.category, s.price, s.review_count, s.avg_rating,
      catalogue_listing.category, catalogue_listing.max_price, catalogue_listing.min_rating
    )
$$;
grant execute on function public.catalogue_listing(text, numeric, numeric) to anon, authenticated, service_role;

-- The page's rows: agents_with_stats and search_rank ("Best match": highest first). A new
-- return type is a new function; the home page's figures call it without arguments, as before.
drop function public.catalogue_agents(text, text, numeric, numeric);
create function public.catalogue_agents(
  search text default null,
  category text default null,
  max_price numeric default null,
  min_rating numeric default null
)
returns table (
  id uuid,
  name text,
  description text,
  price numeric,
  category text,
  thumbnail_url text,
  images text[],
  features text[],
  seller_id uuid,
  status text,
  created_at timestamptz,
  updated_at timestamptz,
  seller_username text,
  seller_avatar text,
  avg_rating numeric,
  review_count integer,
  purchase_count integer,
  last_version_at timestamptz,
  seller_visibility text,
  seller_display_name text,
  search_rank real
)
language sql
stable
as $$
  -- Two branches, written for the planner: with the search a constant (as the Data API's calls
  -- give it), `nullif(btrim(search), '') is null` folds to true or false and one branch goes.
  select l.*, null::real
  from public.catalogue_listing(
    catalogue_agents.category, catalogue_agents.max_price, catalogue_agents.min_rating
  ) l
  where nullif(btrim(catalogue_agents.search), '') is null
  union all
  select s.*, m.search_rank
  from public.catalogue_matches(
    catalogue_agents.search, catalogue_agents.category, catalogue_agents.max_price, catalogue_agents.min_rating
  ) m
  join public.agents_with_stats s on s.id = m.agent_id
  where nullif(btrim(catalogue_agents.search), '') is not null
$$;
grant execute on function public.catalogue_agents(text, text, numeric, numeric) to anon, authenticated, service_role;

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
    select a.category, count(*) as agent_count
    from public.catalogue_matches(
      category_counts.search, null, category_counts.max_price, category_counts.min_rating
    ) x
    join public.agents a on a.id = x.agent_id
    group by a.category
  ) m on m.category = c.name
  order by c.position, c.name
$$;

-- ---------------------------------------------------------------------------------------------
-- When nothing matches: "Did you mean …", from the catalogue's own words
-- ---------------------------------------------------------------------------------------------
-- The query with each word no listed agent uses replaced by the closest catalogue word (at most
-- two edits, the most used first), when that finds something; NULL otherwise.
create function public.search_did_you_mean(search text)
returns text
language plpgsql
stable
set search_path = ''
as $$
declare
  words text[] := array(
    select l.lexeme from unnest(to_tsvector('simple', public.search_text(left(search, 200)))) l
    order by l.positions[1], l.lexeme
    limit 12
  );
  corrected text[] := '{}';
  replacement text;
  changed boolean := false;
  suggestion text;
begin
  for w in 1..coalesce(cardinality(words), 0) loop
    replacement := words[w];
    if char_length(replacement) >= 3
      and numnode(plainto_tsquery('english', replacement)) > 0
      and not exists (select 1 from public.search_words s where s.word = words[w]) then
      -- The closest candidate, the one more agents use first.
      select s.word into replacement
      from (select c as word from public.search_word_candidates(words[w], 2, 64) c) s
      where public.typo_distance(words[w], s.word, 2) <= least(2, char_length(words[w]) / 3)
      order by
        public.typo_distance(words[w], s.word, 2),
        (select count(*) from public.agent_search d where d.listed and d.words @> array[s.word]) desc,
        s.word
      limit 1;
      if replacement is null then
        replacement := words[w];
      else
        changed := true;
      end if;
    end if;
    corrected := corrected || replacement;
  end loop;
  if not changed then
    return null;
  end if;
  suggestion := array_to_string(corrected, ' ');
  if not exists (select 1 from public.catalogue_matches(suggestion)) then
    return null;
  end if;
  return suggestion;
end;
$$;
grant execute on function public.search_did_you_mean(text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------------------------
-- Suggestions as you type: agents, categories and creators
-- ---------------------------------------------------------------------------------------------
-- What the text typed so far (two characters or more) begins a word of: listed agents by name
-- (the name beginning with it first, then the most bought), categories, and creators by username
-- or by display name where their privacy shows it to the viewer. kind: 'agent' (value: its id, detail: its
-- category), 'category' (value: its slug) or 'creator' (value and detail: the username; label:
-- how the seller is named). At most `max_per_kind` (1 to 10) of each. Names are matched as
-- typed (a substring through the names' trigram index, then a word start): a suggestion must be
-- cheap on every keystroke, where the full search ranks every match; Enter runs that search.
create function public.search_suggestions(search text, max_per_kind integer default 5)
returns table (kind text, label text, value text, detail text)
language sql
stable
set search_path = ''
as $$
  with
    typed as (
      select t.text, public.like_substring(t.text) as anywhere
      -- Symbols and emoji are not part of any name: a run of them is a space.
      from (select btrim(regexp_replace(lower(left(search, 200)), '[^[:alnum:]]+', ' ', 'g')) as text) t
      where char_length(t.text) >= 2
    ),
    limits as (select least(greatest(coalesce(max_per_kind, 5), 1), 10) as n),
    agents as (
      select a.name, a.id, a.category, row_number() over (
        order by starts_with(lower(a.name), t.text) desc, st.purchase_count desc, a.name, a.id
      ) as r
      from typed t
      join public.agents a on a.name ilike t.anywhere
      join public.agent_stats st on st.agent_id = a.id
      where a.status = 'published'
        and not a.seller_banned
        and (starts_with(lower(a.name), t.text) or strpos(lower(a.name), ' ' || t.text) > 0)
    ),
    categories as (
      select c.name, c.slug, c.position as r
      from typed t
      join public.categories c
        on starts_with(lower(c.name), t.text) or strpos(lower(c.name), ' ' || t.text) > 0
    ),
    -- public_profiles: what this viewer may see of a profile (the display name as privacy allows).
    sellers as (
      select p.username, nullif(btrim(p.display_name), '') as display_name
      from typed t
      join public.public_profiles p
        on p.username ilike t.anywhere or p.display_name ilike t.anywhere
      where p.user_type = 'seller'
        and exists (
          select 1 from public.agents a where a.seller_id = p.id and a.status = 'published' and not a.seller_banned
        )
    ),
    creators as (
      select s.username, coalesce(s.display_name, s.username) as name, row_number() over (order by s.username) as r
      from sellers s, typed t
      where starts_with(lower(s.username), t.text)
        or strpos(lower(s.username), '_' || t.text) > 0
        or starts_with(lower(s.display_name), t.text)
        or strpos(lower(s.display_name), ' ' || t.text) > 0
    )
  select x.kind, x.label, x.value, x.detail from (
    select 1 as o, 'agent'::text as kind, a.name as label, a.id::text as value, a.category as detail, a.r
    from agents a where a.r <= (select l.n from limits l)
    union all
    select 2, 'category', c.name, c.slug, null, c.r
    from categories c where c.r <= (select l.n from limits l)
    union all
    select 3, 'creator', c.name, c.username, c.username, c.r
    from creators c where c.r <= (select l.n from limits l)
  ) x
  order by x.o, x.r
$$;
grant execute on function public.search_suggestions(text, integer) to anon, authenticated, service_role;
