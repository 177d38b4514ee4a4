/** What the cart pages and the cart's server code share (ADR 072): its limit and each line's problem. */

/** At most this many agents in a cart (the database's `cart_items_limit` too). */
export const MAX_CART_ITEMS = 50;

/** Why a line of the cart cannot be bought now, in the words shown beside it. */
export const LINE_PROBLEMS = {
  own: 'You are the seller of this agent.',
  'not-on-sale': 'This agent is no longer on sale.',
  owned: 'Already in your collection.',
  pending: 'Your payment for this agent is still being processed.',
} as const;
export type LineProblem = keyof typeof LINE_PROBLEMS;
