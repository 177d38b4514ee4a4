/** What a card shows of an agent (a row of the agents_with_stats view, trimmed). */
export interface AgentSummary {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  thumbnailUrl: string | null;
  sellerUsername: string | null;
  avgRating: number | null;
  reviewCount: number;
  /** When the agent last shipped a version (the card's "Updated 3 days ago"); null: none yet. */
  lastVersionAt?: string | null;
}

/** The columns of agents_with_stats a card needs, for `.select()`. */
export const AGENT_SUMMARY_COLUMNS =
  'id, name, description, price, category, thumbnail_url, seller_username, avg_rating, review_count, last_version_at';

export interface AgentSummaryRow {
  id: string;
  name: string;
  description: string | null;
  price: number | string;
  category: string;
  thumbnail_url: string | null;
  seller_username: string | null;
  avg_rating: number | string | null;
  review_count: number | string | null;
  last_version_at?: string | null;
}

export function toAgentSummary(row: AgentSummaryRow): AgentSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    price: Number(row.price),
    category: row.category,
    thumbnailUrl: row.thumbnail_url,
    sellerUsername: row.seller_username,
    avgRating: row.avg_rating === null ? null : Number(row.avg_rating),
    reviewCount: Number(row.review_count ?? 0),
    lastVersionAt: row.last_version_at ?? null,
  };
}

/** Average rating to one decimal; 5.0 when there are no reviews yet (§2 "Agent card"). */
export function formatRating(avgRating: number | null, reviewCount: number): string {
  if (!reviewCount || avgRating === null || Number.isNaN(avgRating)) return '5.0';
  return avgRating.toFixed(1);
}

/** Dollars with a $ sign; whole amounts without cents ($99), others with two decimals. */
export function formatPrice(price: number): string {
  return Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`;
}
