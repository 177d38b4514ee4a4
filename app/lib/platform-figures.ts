/**
 * The home page's figures: counts of what the marketplace lists (SQL `platform_figures`), said as
 * they are. Below 1,000 a count is exact; above, it is rounded down to two significant digits with
 * a "+" (1,234 → "1,200+"), so a figure never claims more than there is.
 */
import { NO_REVIEWS_YET } from './agents';
import { noun } from './plural';

export interface PlatformFigures {
  agentCount: number;
  sellerCount: number;
  purchaseCount: number;
  reviewCount: number;
  /** Average of every review of a listed agent, to one decimal; null while none is reviewed. */
  avgRating: number | null;
}

const whole = new Intl.NumberFormat('en-US');

/** A count as the home page says it: exact below 1,000, else rounded down with "+". */
export function formatCount(count: number): string {
  if (count < 1000) return whole.format(count);
  const step = 10 ** (String(Math.floor(count)).length - 2);
  const floored = Math.floor(count / step) * step;
  return `${whole.format(floored)}${floored < count ? '+' : ''}`;
}

/** The four figures of the home page's stats row, in order, each with its label. */
export function figureRows(figures: PlatformFigures): { value: string; label: string }[] {
  return [
    { value: formatCount(figures.agentCount), label: noun(figures.agentCount, 'AI agent') },
    { value: formatCount(figures.sellerCount), label: noun(figures.sellerCount, 'Seller') },
    { value: formatCount(figures.purchaseCount), label: noun(figures.purchaseCount, 'Purchase') },
    figures.avgRating === null || figures.reviewCount === 0
      ? { value: NO_REVIEWS_YET, label: 'Average rating' }
      : {
          value: figures.avgRating.toFixed(1),
          label: `Average rating of ${formatCount(figures.reviewCount)} ${noun(figures.reviewCount, 'review')}`,
        },
  ];
}
