/**
 * `POST /webhooks/stripe`: Stripe's events (docs/decisions/019-stripe-provider.md). A resource
 * route: 404 unless Stripe is configured, 405 for any method but POST. The Stripe-Signature header
 * is the request's authentication (a forged or stale one: 400, nothing read or changed); the
 * same-origin check of server/security.ts lets it through because Stripe's servers send neither
 * Origin nor Sec-Fetch-Site. Each event is applied once per event id: payments by
 * `applyPaymentNotification` (`payment_events`), subscriptions by `applySubscriptionNotification`;
 * events this app does not act on are acknowledged (200) and ignored.
 */
import { connectionContext } from '~/context';
import { InvalidNotificationError } from '~/server/payments/provider.server';
import { stripeProvider } from '~/server/payments/stripe-provider.server';
import { applyPaymentNotification } from '~/server/purchases.server';
import { applySubscriptionNotification } from '~/server/subscription-lifecycle.server';
import { createServiceSupabase } from '~/server/supabase.server';
import type { Route } from './+types/stripe';

function answer(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

const notConfigured = () => answer(404, { error: 'Not found' });
const methodNotAllowed = () => answer(405, { error: 'Method not allowed' }, { Allow: 'POST' });

export function loader() {
  return stripeProvider() ? methodNotAllowed() : notConfigured();
}

export async function action({ request, context }: Route.ActionArgs) {
  const stripe = stripeProvider();
  if (!stripe) return notConfigured();
  if (request.method !== 'POST') return methodNotAllowed();

  let read;
  try {
    read = await stripe.readEvent(request);
  } catch (error) {
    if (error instanceof InvalidNotificationError) return answer(400, { error: 'Invalid signature' });
    throw error;
  }
  if (read.kind === 'ignored') return answer(200, { received: true, result: 'ignored' });

  const service = createServiceSupabase(context.get(connectionContext));
  // A failure here is a 500: Stripe delivers the event again later, and the event id keeps it once.
  const result =
    read.kind === 'payment'
      ? await applyPaymentNotification(service, stripe, read.notification)
      : await applySubscriptionNotification(service, read.notification);
  return answer(200, { received: true, result });
}
