/** A message shown once after a redirect (POST → redirect → GET), e.g. without JavaScript. */
export interface Flash {
  kind: 'success' | 'error';
  message: string;
  /** Which widget the message belongs to, so it renders in place (e.g. 'newsletter'). */
  scope?: string;
  /** Form values to restore after an error (never passwords). */
  values?: Record<string, string>;
}
