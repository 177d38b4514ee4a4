/**
 * Maintenance mode (a platform setting, ADR 065): while it is on, everyone can browse, and only
 * administrators can change anything. Every other POST to the app (buying, selling, reviews,
 * sign-up, settings of one's own) is refused with 503 and the maintenance message, before its
 * action runs; signing in and out stay open, so that an administrator can sign in to end it.
 */
import { apiError } from '~/server/api/responses.server';
import { data } from 'react-router';
import { viewerContext } from '~/context';
import type { MaintenanceError } from '~/lib/route-errors';
import { PLATFORM_SETTINGS_MESSAGES } from '~/schemas/platform-settings';
import { platformSettings } from '~/server/platform-settings.server';
import type { Route } from '../+types/root';

/**
 * What stays open during maintenance: signing in (its second step, Google, a forgotten password)
 * and out; the theme (a cookie); and the payment provider's events, which tell of payments that
 * already happened and must be recorded; and licence checks, which buyers' copies of agents make.
 */
const OPEN_DURING_MAINTENANCE = [
  '/auth/sign-in',
  '/auth/two-factor',
  '/auth/google',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/sign-out',
  '/resources/theme',
  '/webhooks/stripe',
  '/api/v1/licenses/verify',
];

export const maintenanceMiddleware: Route.MiddlewareFunction = async ({ request, context }, next) => {
  if (request.method === 'GET' || request.method === 'HEAD') return next();
  const path = new URL(request.url).pathname.replace(/\.data$/, '').replace(/(.)\/+$/, '$1');
  if (OPEN_DURING_MAINTENANCE.includes(path)) return next();
  const settings = await readSettings(context);
  if (!settings?.maintenanceMode || context.get(viewerContext)?.role === 'admin') return next();
  const payload: MaintenanceError = {
    type: 'maintenance',
    message: settings.maintenanceMessage
      ? `${PLATFORM_SETTINGS_MESSAGES.maintenance} ${settings.maintenanceMessage}`
      : PLATFORM_SETTINGS_MESSAGES.maintenance,
  };
  // The JSON API answers in its own error shape (licence checks stay open, above).
  if (path.startsWith('/api/')) return apiError(503, 'unavailable', payload.message);
  throw data(payload, { status: 503 });
};

/** The notice every page shows during maintenance, or null. */
export async function maintenanceNotice(context: Route.LoaderArgs['context']): Promise<string | null> {
  const settings = await readSettings(context);
  if (!settings?.maintenanceMode) return null;
  return settings.maintenanceMessage
    ? `Maintenance: changes are paused. ${settings.maintenanceMessage}`
    : 'Maintenance: you can browse, but changes are paused for now.';
}

/**
 * The settings, or null when the database cannot say: a page that needs the database fails on its
 * own read, and one that does not (an info page) still renders.
 */
function readSettings(context: Route.LoaderArgs['context']) {
  return platformSettings(context).catch(() => null);
}
