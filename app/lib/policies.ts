/**
 * The marketplace's policies (ADR 069): three versioned Markdown documents in the database, each
 * with its public page. Who must accept which: everyone the Terms of Service and the Privacy
 * Policy (before a purchase), sellers the Seller Policy too (before a listing change).
 */
export const POLICY_DOCUMENTS = ['terms', 'privacy', 'seller'] as const;
export type PolicyDocument = (typeof POLICY_DOCUMENTS)[number];

export const POLICY_TITLES: Record<PolicyDocument, string> = {
  terms: 'Terms of Service',
  privacy: 'Privacy Policy',
  seller: 'Seller Policy',
};

export const POLICY_PATHS: Record<PolicyDocument, string> = {
  terms: '/terms',
  privacy: '/privacy',
  seller: '/seller-policy',
};

export const POLICY_INTROS: Record<PolicyDocument, string> = {
  terms: 'The rules for using AgentMarket. By creating an account you agree to them.',
  privacy: 'What AgentMarket keeps about you, why, and what you can do with it.',
  seller: 'What sellers agree to when they list agents on AgentMarket.',
};

/** What a purchase needs accepted, and what a listing change needs. */
export const BEFORE_PURCHASE: readonly PolicyDocument[] = ['terms', 'privacy'];
export const BEFORE_LISTING: readonly PolicyDocument[] = ['terms', 'privacy', 'seller'];

export const POLICIES_ACCEPT_PATH = '/policies/accept';

export function isPolicyDocument(value: unknown): value is PolicyDocument {
  return typeof value === 'string' && (POLICY_DOCUMENTS as readonly string[]).includes(value);
}

/** A version's page: the document's path, with `?version=` for one that is no longer in force. */
export function policyVersionHref(document: PolicyDocument, version: number, current: number): string {
  return version === current ? POLICY_PATHS[document] : `${POLICY_PATHS[document]}?version=${version}`;
}

export const POLICY_MESSAGES = {
  summary: 'Say in a sentence what changed (at most 500 characters).',
  body: 'Write the document (at most 50,000 characters).',
  published: (title: string, version: number) => `${title} version ${version} published.`,
  acceptRequired: 'Tick the box to accept the updated policies, or leave this page.',
  accepted: 'Thank you: your acceptance is recorded.',
} as const;
