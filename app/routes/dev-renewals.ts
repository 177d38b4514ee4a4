/**
 * POST /__dev/renewals: runs the renewal job at once for the signed-in member, with its clock at
 * `at` (an ISO date), so the end-to-end tests can move time (a renewal, a past-due card, the end
 * of the grace period). A development door: 404 unless ENABLE_DEV_TOOLS=true (never in
 * production; tests/e2e/mail-and-google.spec.ts proves it). Only the caller's own subscriptions move.
 */
import { data } from 'react-router';
import { connectionContext, viewerContext } from '~/context';
import { env } from '~/server/env.server';
import { notFound } from '~/server/http-errors.server';
import { paymentProvider } from '~/server/payments/index.server';
import { runRenewals } from '~/server/renewals.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/dev-renewals';

export function loader() {
  notFound();
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!env.ENABLE_DEV_TOOLS) notFound();
  const viewer = context.get(viewerContext);
  if (!viewer) throw data({ error: 'Sign in first.' }, { status: 401 });
  const at = new Date(String((await request.formData()).get('at') ?? ''));
  if (Number.isNaN(at.getTime())) throw data({ error: '`at` must be an ISO date.' }, { status: 400 });
  const report = await runRenewals({
    service: createServiceSupabase(context.get(connectionContext)),
    provider: paymentProvider(),
    now: at,
    onlyUserId: viewer.id,
  });
  return Response.json(report);
}
