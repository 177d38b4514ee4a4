/**
 * `GET /dashboard/billing/export`: Billing's 'Download All', the member's whole billing history
 * as a CSV file (app/server/billing-history.server.ts). A resource route inside the Billing
 * section, so the same permission guards it (`requireSection`); a plain link downloads it, with
 * or without JavaScript.
 */
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { attachmentDisposition } from '~/lib/content-disposition';
import { allBillingHistory, billingCsv } from '~/server/billing-history.server';
import { requireSection } from '~/server/guards.server';
import type { Route } from './+types/billing-export';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const rows = await allBillingHistory(args.context.get(supabaseContext));
  const today = new Date().toISOString().slice(0, 10);
  return new Response(billingCsv(rows, timeZone), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': attachmentDisposition(`billing-history-${viewer.username}-${today}.csv`),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
