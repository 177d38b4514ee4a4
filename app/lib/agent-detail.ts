/**
 * Pure logic of the agent page (docs/product.md, "Public pages"): review paging, the rating
 * distribution, dates and the link-preview description. Shared by the loader and the UI.
 */
import { pluralize } from '~/lib/plural';

export const REVIEWS_PER_PAGE = 5;
export const REVIEWS_PAGE_PARAM = 'reviewsPage';
export const META_DESCRIPTION_MAX = 155;

export type AgentStatus = 'draft' | 'published' | 'archived';

/** Everything the agent page renders, and nothing more. */
export interface AgentDetail {
  id: string;
  name: string;
  description: string;
  price: number;
  category: string;
  status: AgentStatus;
  images: string[];
  features: string[];
  /** Null once the seller deleted their account (the agent stays for its buyers). */
  sellerId: string | null;
  sellerUsername: string | null;
  /** How the seller is named (app/lib/sellers.ts sellerName); null with sellerUsername. */
  sellerName: string | null;
  avgRating: number | null;
  reviewCount: number;
  purchaseCount: number;
}

export interface AgentReview {
  id: string;
  username: string;
  rating: number;
  text: string;
  createdAt: string;
  /** The seller's public reply (/dashboard/reviews), if any. */
  reply: { text: string; updatedAt: string } | null;
}

export interface RatingBucket {
  stars: 1 | 2 | 3 | 4 | 5;
  count: number;
  /** Whole percent of all reviews, for the bar width. */
  percent: number;
}

export interface ReviewPaging {
  page: number;
  pageCount: number;
  /** Inclusive row range for `.range(from, to)`. */
  from: number;
  to: number;
}

/** The requested page clamped to the pages that exist (at least one page, even when empty). */
export function reviewPaging(requested: number, total: number, perPage = REVIEWS_PER_PAGE): ReviewPaging {
  const pageCount = Math.max(1, Math.ceil(Math.max(0, total) / perPage));
  const page = Math.min(Math.max(1, Math.floor(requested) || 1), pageCount);
  const from = (page - 1) * perPage;
  return { page, pageCount, from, to: from + perPage - 1 };
}

/** How many reviews of one agent gave `rating` (the database counts them, one row per rating given). */
export interface RatingCount {
  rating: number;
  count: number;
}

/** Every review counted (ratings outside 1–5 left out): the number the review pages divide. */
export function ratedReviewCount(counts: readonly RatingCount[]): number {
  return counts.reduce((total, { rating, count }) => total + (isStarRating(rating) ? count : 0), 0);
}

const isStarRating = (rating: number) => Number.isInteger(rating) && rating >= 1 && rating <= 5;

/** Counts per star, 5 down to 1, from the rating counts of one agent's reviews. */
export function ratingDistribution(counts: readonly RatingCount[]): RatingBucket[] {
  const total = ratedReviewCount(counts);
  return ([5, 4, 3, 2, 1] as const).map((stars) => {
    const count = counts.reduce((sum, row) => sum + (row.rating === stars ? row.count : 0), 0);
    return { stars, count, percent: total ? Math.round((count / total) * 100) : 0 };
  });
}

/** '5 stars: 12 reviews', the text equivalent of a distribution bar. */
export function ratingBucketLabel(bucket: Pick<RatingBucket, 'stars' | 'count'>): string {
  return `${pluralize(bucket.stars, 'star')}: ${pluralize(bucket.count, 'review')}`;
}

export function purchaseCountLabel(count: number): string {
  return pluralize(count, 'purchase');
}

export function reviewCountLabel(count: number): string {
  return pluralize(count, 'review');
}

const REVIEW_DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** 'Oct 16, 2026', in UTC so the server and the browser print the same day. */
export function formatReviewDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : REVIEW_DATE.format(date);
}

/** The description cut to about 155 characters at a word boundary, for meta and link previews. */
export function metaDescription(text: string, max = META_DESCRIPTION_MAX): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:!?-]+$/, '')}…`;
}

/** The thumbnail first, then the other images, without duplicates or blanks. */
export function galleryImages(thumbnailUrl: string | null, images: readonly (string | null)[] | null): string[] {
  const all = [thumbnailUrl, ...(images ?? [])].filter((url): url is string => typeof url === 'string' && !!url);
  return [...new Set(all)];
}

/**
 * What the agent page offers the viewer: Edit to its seller, Download to an owner, Buy to a
 * signed-in buyer (sign-in first when anonymous); nothing to buy once it is off sale.
 */
export type AgentCallToAction = 'edit' | 'owned' | 'pending' | 'buy' | 'sign-in' | 'unavailable';

export function agentCallToAction(input: {
  viewerId: string | null;
  canPlaceOrders: boolean;
  sellerId: string | null;
  status: AgentStatus;
  owned: boolean;
  pending?: boolean;
}): AgentCallToAction {
  if (input.viewerId && input.viewerId === input.sellerId) return 'edit';
  if (input.owned) return 'owned';
  if (input.pending) return 'pending';
  if (input.status !== 'published') return 'unavailable';
  if (!input.viewerId) return 'sign-in';
  return input.canPlaceOrders ? 'buy' : 'unavailable';
}
