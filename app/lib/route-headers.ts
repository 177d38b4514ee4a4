import type { HeadersFunction } from 'react-router';

/**
 * Lets an action's headers (e.g. `Retry-After` on a 429) reach the document response of a
 * form posted without JavaScript; otherwise the loader's headers apply.
 */
export const actionOrLoaderHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Retry-After') ? actionHeaders : loaderHeaders;
