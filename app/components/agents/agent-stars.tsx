/**
 * Five stars, `rating` of them filled, announced as 'Rated 4 out of 5'. Text glyphs clipped to a
 * width instead of five SVG icons: the review list repeats this, and the HTML stays small.
 */
export function AgentStars({ rating, size = 'text-base' }: { rating: number; size?: string }) {
  const percent = Math.max(0, Math.min(100, (Math.round(rating * 2) / 2 / 5) * 100));
  return (
    <span
      role="img"
      aria-label={`Rated ${rating} out of 5`}
      className={`relative inline-block leading-none tracking-wider text-slate-500 dark:text-slate-400 ${size}`}
    >
      ★★★★★
      <span
        className="absolute inset-0 overflow-hidden whitespace-nowrap text-amber-500"
        style={{ width: `${percent}%` }}
      >
        ★★★★★
      </span>
    </span>
  );
}
