/**
 * `GET /dashboard/earnings/export`: the seller's sales as a CSV file (one row per purchase, with
 * the platform fee and the net of each; app/server/earnings.server.ts). A resource route inside
 * the Earnings section, so the same permission guards it (`requireSection`); a plain link
 * downloads it, with or without JavaScript.
 */
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { attachmentDisposition } from '~/lib/content-disposition';
import { earningsCsv, listEarningsRows } from '~/server/earnings.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/earnings-export';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const rows = await listEarningsRows(args.context.get(supabaseContext), viewer.id);
  const today = new Date().toISOString().slice(0, 10);
  return new Response(earningsCsv(rows, timeZone), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(`earnings-${viewer.username}-${today}.csv`),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
