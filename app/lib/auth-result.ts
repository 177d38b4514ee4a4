/** What the sign-in, sign-up and password actions answer when they do not redirect. */
export interface AuthActionResult {
  status: 'error' | 'success';
  message: string;
  hints?: string[];
  /** What the user typed, to refill the form (never the password). */
  values?: Record<string, string>;
}
