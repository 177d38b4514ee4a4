-- A misspelt word's candidates read through indexes, with a plan kept per session (ADR 078).
-- Over the benchmark's 11,000 catalogue words, search_word_candidates read every word and was
-- planned again on each call (a SQL function with SET is never inlined, and its statement is
-- not cached): about 3 ms of every misspelt word's expansion. The candidates share the word's
-- first letter or its last, and their length is within two of its own: two indexes on
-- (first letter, length) and (last letter, length) give the planner a BitmapOr of a few dozen
-- words, and plpgsql keeps the statement's plan. The same rows in the same order as before.
create index search_words_first_letter_idx on public.search_words (left(word, 1), char_length(word));
create index search_words_last_letter_idx on public.search_words (right(word, 1), char_length(word));

create or replace function public.search_word_candidates(word text, most integer, how_many integer)
returns setof text
language plpgsql
stable
set search_path = ''
as $$
begin
  return query
  select w.word from public.search_words w
  where char_length(search_word_candidates.word) <= 40
    and char_length(w.word) between char_length(search_word_candidates.word) - least(greatest(most, 0), 2)
      and char_length(search_word_candidates.word) + least(greatest(most, 0), 2)
    and (left(w.word, 1) = left(search_word_candidates.word, 1)
      or right(w.word, 1) = right(search_word_candidates.word, 1))
    and extensions.levenshtein_less_equal(w.word, search_word_candidates.word, 2 * least(greatest(most, 0), 2))
      <= 2 * least(greatest(most, 0), 2)
  order by left(w.word, 2) = left(search_word_candidates.word, 2) desc, w.word
  limit least(greatest(how_many, 0), 64);
end;
$$;
