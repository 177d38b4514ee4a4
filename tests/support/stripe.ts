/**
 * Stripe webhooks without network: the recorded event payloads of tests/fixtures/stripe (Stripe's
 * event shape at the SDK's API version) and requests signed with the SDK's own test helper.
 */
import { readFileSync } from 'node:fs';
import Stripe from 'stripe';
import type { STRIPE_WEBHOOK_EVENTS } from '../../app/server/payments/stripe-events.server';

export type StripeFixtureName = (typeof STRIPE_WEBHOOK_EVENTS)[number];

/** The recorded event, parsed. */
export function stripeFixture(name: StripeFixtureName): Stripe.Event {
  return JSON.parse(readFileSync(new URL(`../fixtures/stripe/${name}.json`, import.meta.url), 'utf8'));
}

/** A `POST /webhooks/stripe` request carrying `payload`, signed with `secret` as Stripe signs. */
export function signedStripeRequest(payload: string, secret: string, init: { method?: string } = {}): Request {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return new Request('http://localhost/webhooks/stripe', {
    method: init.method ?? 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature, 'User-Agent': 'Stripe/1.0' },
    body: payload,
  });
}
