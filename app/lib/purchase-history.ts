/**
 * Purchase History: the page's URL state, its rows and the Contact Seller
 * dialog's wording and mail drafts. Pure, shared by the loader and the page; the URL is parsed
 * with zod on the server only (purchase-history-params.server.ts).
 */
import type { PurchaseStatus } from '~/lib/membership';

export const PURCHASES_PATH = '/dashboard/purchases';

/** The longest search the page passes to the database. */
export const MAX_PURCHASE_SEARCH_LENGTH = 100;

/** The page's URL state. `null` is "no filter" (and, for `contact`, no dialog). */
export interface PurchaseHistoryParams {
  q: string | null;
  status: PurchaseStatus | null;
  /** A category's URL slug, as on the marketplace. */
  category: string | null;
  /** The purchase whose seller the Contact Seller dialog is about. */
  contact: string | null;
  /** The list's page (1-based, PAGE_SIZE purchases a page). */
  page: number;
}

/** One row of the page. */
export interface PurchaseRow {
  id: string;
  agentId: string;
  agentName: string;
  agentDescription: string;
  thumbnailUrl: string | null;
  category: string | null;
  status: PurchaseStatus;
  statusReason: string | null;
  amount: number;
  purchasedOn: string;
  downloadCount: number;
  lastDownloadedOn: string | null;
  rating: number | null;
  sellerId: string;
  sellerName: string;
  sellerOnline: boolean;
  sellerResponseHours: number | null;
}

/** The Contact Seller dialog: the purchase's seller and what their privacy settings share. */
export interface SellerContact {
  purchaseId: string;
  agentId: string;
  agentName: string;
  purchasedOn: string;
  sellerName: string;
  online: boolean;
  responseHours: number | null;
  /** The seller's picture, email and phone: only what their privacy settings let this buyer see. */
  pictureUrl: string | null;
  email: string | null;
  phone: string | null;
  website: string | null;
}

export const STATUS_FILTER_OPTIONS: readonly { value: PurchaseStatus | ''; label: string }[] = [
  { value: '', label: 'All Statuses' },
  { value: 'completed', label: 'Completed' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
  { value: 'refunded', label: 'Refunded' },
];

export function hasActiveFilters(params: PurchaseHistoryParams): boolean {
  return params.q !== null || params.status !== null || params.category !== null;
}

/** `?q=…&status=…&category=…&page=…&contact=…` in this order, without empty values or page 1 ('' when none). */
export function purchasesSearch(params: PurchaseHistoryParams): string {
  const query = new URLSearchParams();
  if (params.q) query.set('q', params.q);
  if (params.status) query.set('status', params.status);
  if (params.category) query.set('category', params.category);
  if (params.page > 1) query.set('page', String(params.page));
  if (params.contact) query.set('contact', params.contact);
  const search = query.toString();
  return search ? `?${search}` : '';
}

export function purchasesHref(params: PurchaseHistoryParams): string {
  return `${PURCHASES_PATH}${purchasesSearch(params)}`;
}

/** '9 purchases' / '1 purchase'. */
export function purchaseCountLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'purchase' : 'purchases'}`;
}

/** A row's downloads: '{n} times', '1 time' for one. */
export function downloadCountLabel(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'time' : 'times'}`;
}

/** The agent's download route (app/routes/agent-download.ts): its latest version. */
export function agentDownloadHref(agentId: string): string {
  return `/agent/${agentId}/download`;
}

/** The rating page, coming back to `returnTo` (a same-origin path) afterwards. */
export function agentReviewHref(agentId: string, returnTo: string): string {
  return `/agent/${agentId}/review?${new URLSearchParams({ returnTo })}`;
}

/**
 * 'Responds in about 2 hours', 'Responds within a day': the seller's stated response time, or
 * `null` when they stated none (never an invented one).
 */
export function responseTimeLabel(hours: number | null | undefined): string | null {
  if (hours === null || hours === undefined || !Number.isFinite(hours) || hours <= 0) return null;
  const whole = Math.ceil(hours);
  if (whole < 24) return `Responds in about ${whole} ${whole === 1 ? 'hour' : 'hours'}`;
  const days = Math.ceil(whole / 24);
  if (days === 1) return 'Responds within a day';
  if (days === 7) return 'Responds within a week';
  return `Responds within ${days} days`;
}

/** The Contact Seller dialog's quick messages, in the order they are shown. */
export const QUICK_MESSAGES = [
  'I need help setting up the AI agent',
  'Can you provide additional documentation?',
  'I have a question about customization options',
  'Request for technical support',
] as const;

/**
 * A `mailto:` link with an encoded subject and body (RFC 6068: every reserved character
 * percent-encoded, line breaks as CRLF). The address keeps its '@' readable.
 */
export function mailtoHref(to: string, { subject, body }: { subject: string; body: string }): string {
  const address = encodeURIComponent(to.trim()).replace(/%40/g, '@');
  const crlf = body.replace(/\r?\n/g, '\r\n');
  return `mailto:${address}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(crlf)}`;
}

export interface ContactDraftInput {
  agentName: string;
  sellerName: string;
  buyerName: string;
  /** The purchase date as the page shows it ('Jan 5, 2025'). */
  purchasedOn: string;
  /** One of QUICK_MESSAGES, or none for Send Email. */
  message?: string;
}

/** Subject 'Question about {agent name}' and a greeting that mentions the purchase date. */
export function contactDraft({ agentName, sellerName, buyerName, purchasedOn, message }: ContactDraftInput) {
  const lines = [`Hello ${sellerName},`, '', `I purchased ${agentName} on AgentMarket on ${purchasedOn}.`, ''];
  if (message) lines.push(`${message}.`.replace(/([.?!])\.$/, '$1'), '');
  lines.push('Best regards,', buyerName);
  return { subject: `Question about ${agentName}`, body: lines.join('\n') };
}
