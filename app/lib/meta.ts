import { isRouteErrorResponse } from 'react-router';

/** Title and description tags for a page; every route has both. */
export const SITE_NAME = 'AgentMarket';

export function pageMeta(title: string, description: string) {
  const fullTitle = title === SITE_NAME ? title : `${title} | ${SITE_NAME}`;
  return [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:site_name', content: SITE_NAME },
  ];
}

/**
 * On an error screen, a title that names the error; null when there is none. A route's meta:
 * `({ error }) => errorMeta(error) ?? pageMeta(title, description)`.
 */
export function errorMeta(error: unknown) {
  if (!error) return null;
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title =
    status === 404
      ? 'Page not found'
      : status === 403
        ? 'Access Denied'
        : status === 503
          ? 'Service unavailable'
          : 'Something went wrong';
  return pageMeta(title, 'An error page of AgentMarket.');
}
