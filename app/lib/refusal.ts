/**
 * A refusal: what the product says when it will not do what was asked (a rule, not a fault),
 * with the HTTP status the answer carries and, when one field is at fault, its name. Every
 * domain keeps its refusals in one catalogue of these, keyed by what went wrong; server code
 * returns the key, the route answers `formError(submission, CATALOGUE[key])`.
 */
export interface Refusal {
  message: string;
  /**
   * 400 bad input, 402 payment declined, 403 not yours, 404 gone, 409 the state forbids it, 429
   * too many, 503 outage; 202 when what was asked is already under way (a refund being processed).
   */
  status: 202 | 400 | 402 | 403 | 404 | 409 | 429 | 503;
  field?: string;
}

/** A catalogue of refusals, keyed by what went wrong (the keys stay literal types). */
export function refusals<Key extends string>(catalogue: Record<Key, Refusal>): Readonly<Record<Key, Refusal>> {
  return catalogue;
}
