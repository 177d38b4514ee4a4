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
