/**
 * The app's public origin, for links in emails, OAuth redirects and canonical URLs: `APP_URL`
 * (required in a production deployment, app/server/env.server.ts), else this server's own
 * origin, which server/app.ts gives once it listens, under the loopback name a request came in on
 * (packages/supabase-embedded/src/public-origin.ts). A request's `Host` or `X-Forwarded-Host` never decides it.
 */
import { env } from '~/server/env.server';
import { servedOrigin } from '@agentmarket/supabase-embedded/shared';

let ownOrigin = `http://localhost:${env.PORT}`;

/** server/app.ts, once the port is known. */
export function setOwnOrigin(url: string): void {
  ownOrigin = new URL(url).origin;
}

export function publicOrigin(request: Request): string {
  return env.APP_URL ? new URL(env.APP_URL).origin : servedOrigin(new URL(request.url).origin, ownOrigin);
}
