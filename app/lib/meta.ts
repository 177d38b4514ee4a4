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
