/**
 * My Collection: what a card shows and the count line. Pure, shared by the
 * loader and the page.
 */

import type { LicenseView } from '~/lib/licenses';

export const COLLECTION_PATH = '/dashboard/collection';

/** Page `page` of the collection: `?page=N`, none for the first page (one URL per page). */
export function collectionHref(page: number): string {
  return page > 1 ? `${COLLECTION_PATH}?page=${page}` : COLLECTION_PATH;
}

/** One completed purchase as its card shows it (dates already on the buyer's calendar). */
export interface CollectionItem {
  purchaseId: string;
  agentId: string;
  name: string;
  description: string;
  thumbnailUrl: string | null;
  category: string;
  /** How the seller is named (sellerName); null once the seller deleted their account. */
  sellerName: string | null;
  /** The buyer's own rating, or null when they have not rated the agent yet. */
  rating: number | null;
  amount: number;
  purchasedOn: string;
  /** The purchase's licence key and activations (ADR 073); null only while it is being made. */
  license: LicenseView | null;
  /** A version released since the purchase that the buyer has not downloaded (ADR 075), or null. */
  updateVersion: string | null;
}

/** '{n} AI agents in your collection' (the page's words), singular for one. */
export function collectionCountLine(count: number): string {
  return count === 1
    ? '1 AI agent in your collection'
    : `${count.toLocaleString('en-US')} AI agents in your collection`;
}

/** The package download of the agent's latest version (app/routes/agent-download.ts). */
export function downloadHref(agentId: string): string {
  return `/agent/${agentId}/download`;
}

/** The rating form, coming back to `returnTo` (a same-origin path) after saving. */
export function reviewHref(agentId: string, returnTo?: string): string {
  const path = `/agent/${agentId}/review`;
  // Slashes stay readable (`?returnTo=/dashboard/collection`); everything else is encoded.
  return returnTo ? `${path}?returnTo=${encodeURIComponent(returnTo).replaceAll('%2F', '/')}` : path;
}
