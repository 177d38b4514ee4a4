import { OBJECTS, ROLES, TOPICS, VERBS } from './seed.js';

/**
 * Catalogue reads are shared between requests for 5 s (ADR 008). This target gives every request
 * a different filter (300 prices × 4 ratings × 5 sorts, each revisited only after 6,000 requests,
 * far more than 5 s of traffic here), so its page query and its counts miss the cache: the cost
 * of a page nobody asked for in the last 5 seconds.
 */
export function uncachedMarketplacePath() {
  const ratings = ['', '3', '4', '4.5'];
  const sorts = ['', 'popular', 'price-low', 'price-high', 'rating'];
  let n = 0;
  return () => {
    const i = n++;
    const query = new URLSearchParams({ maxPrice: String(299 - (i % 300)) });
    const rating = ratings[Math.floor(i / 300) % ratings.length];
    const sort = sorts[Math.floor(i / 1200) % sorts.length];
    if (rating) query.set('minRating', rating);
    if (sort) query.set('sort', sort);
    return `/marketplace?${query}`;
  };
}

/** Every distinct prefix (2 to 6 characters) of the seeded agents' words, shortest first. */
export function suggestionPrefixes() {
  const words = [...new Set([...TOPICS.flat(), ...ROLES].flatMap((phrase) => phrase.toLowerCase().split(/\s+/)))];
  const prefixes = new Set();
  for (let length = 2; length <= 6; length++)
    for (const word of words) if (word.length >= length) prefixes.add(word.slice(0, length));
  return [...prefixes];
}

/**
 * The search's cache-miss target: every request a different two-word query over the seeded
 * agents' words (a topic word with a role, a verb or an object, in either order), one in four
 * with a typo (two neighbouring letters swapped in a word of five letters or more), each query
 * revisited only after thousands of requests, far more than 5 s of traffic here.
 */
export function uncachedSearchPath() {
  const words = (phrases) => [...new Set(phrases.flatMap((phrase) => phrase.toLowerCase().split(/\s+/)))];
  const topics = words(TOPICS.flat());
  const others = words([...ROLES, ...VERBS, ...OBJECTS]);
  const misspell = (word) => (word.length >= 5 ? `${word.slice(0, 2)}${word[3]}${word[2]}${word.slice(4)}` : word);
  let n = 0;
  return () => {
    const i = n++;
    const topic = topics[i % topics.length];
    const other = others[Math.floor(i / topics.length) % others.length];
    const pair = Math.floor(i / (topics.length * others.length)) % 2 === 0 ? [topic, other] : [other, topic];
    if (i % 4 === 3) pair[1] = misspell(pair[1]);
    return `/marketplace?${new URLSearchParams({ q: pair.join(' ') })}`;
  };
}
