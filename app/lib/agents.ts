import { sellerName, toProfileVisibility, type ProfileVisibility } from '~/lib/sellers';
/** What a card shows of an agent (a row of the agents_with_stats view, trimmed). */
export interface AgentSummary {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  thumbnailUrl: string | null;
  sellerUsername: string | null;
  /** How the seller is named (sellerName): null once the seller deleted their account. */
  sellerName: string | null;
  /** The seller's picture: only set when their profile is public (the cards are read anonymously). */
  sellerAvatar?: string | null;
  /** Who may open the seller's profile (their storefront); the cards link it only for them. */
  sellerVisibility?: ProfileVisibility;
  avgRating: number | null;
  reviewCount: number;
  /** When the agent last shipped a version (the card's "Updated 3 days ago"); null: none yet. */
  lastVersionAt?: string | null;
}

/** The columns of agents_with_stats a card needs, for `.select()`. */
export const AGENT_SUMMARY_COLUMNS =
  'id, name, description, price, category, thumbnail_url, seller_username, seller_display_name, seller_avatar, seller_visibility, avg_rating, review_count, last_version_at';

export interface AgentSummaryRow {
  id: string;
  name: string;
  description: string | null;
  price: number | string;
  category: string;
  thumbnail_url: string | null;
  seller_username: string | null;
  seller_display_name?: string | null;
  seller_avatar?: string | null;
  seller_visibility?: string | null;
  avg_rating: number | string | null;
  review_count: number | string | null;
  last_version_at?: string | null;
}

/** What every page reads the same way of an agent row: its listing and its seller's names. */
export function agentListing(
  row: Pick<AgentSummaryRow, 'id' | 'name' | 'description' | 'price' | 'category' | 'seller_username'> & {
    seller_display_name?: string | null;
  },
) {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    price: Number(row.price),
    category: row.category,
    sellerUsername: row.seller_username,
    sellerName: row.seller_username && sellerName(row.seller_username, row.seller_display_name),
  };
}

export function toAgentSummary(row: AgentSummaryRow): AgentSummary {
  return {
    ...agentListing(row),
    thumbnailUrl: row.thumbnail_url,
    sellerAvatar: row.seller_avatar ?? null,
    sellerVisibility: toProfileVisibility(row.seller_visibility),
    avgRating: row.avg_rating === null ? null : Number(row.avg_rating),
    reviewCount: Number(row.review_count ?? 0),
    lastVersionAt: row.last_version_at ?? null,
  };
}

/** Said wherever an agent has no rating yet (docs/product.md, "Public pages"). */
export const NO_REVIEWS_YET = 'No reviews yet';

/**
 * Average rating to one decimal, or null for an agent nobody has rated: it has no rating (not
 * five stars), as the rating filter and the "Highest rated" sort already treat it.
 */
export function formatRating(avgRating: number | null, reviewCount: number): string | null {
  if (!reviewCount || avgRating === null || Number.isNaN(avgRating)) return null;
  return avgRating.toFixed(1);
}

/** Dollars with a $ sign; whole amounts without cents ($99), others with two decimals. */
export function formatPrice(price: number): string {
  return Number.isInteger(price) ? `$${price}` : `$${price.toFixed(2)}`;
}
