import { agentArtworkSvg, parseArtworkParams } from '~/lib/agent-artwork';
import type { Route } from './+types/artwork';

/**
 * `/artwork/:category/:seed/:name.svg`: an agent's generated cover picture (app/lib/agent-artwork.ts),
 * drawn from the URL alone: no database read, the same URL always the same bytes, so browsers and
 * proxies keep it for a year. A malformed URL is a plain 404.
 */
export function loader({ params }: Route.LoaderArgs) {
  const artwork = parseArtworkParams(params);
  if (!artwork) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });
  return new Response(agentArtworkSvg(artwork), {
    headers: {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=31536000, immutable',
      // An SVG opened on its own runs no script and loads nothing.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
