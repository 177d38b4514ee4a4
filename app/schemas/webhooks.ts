/**
 * The webhook forms of the Developers page (ADR 076): an endpoint (an https URL and its events),
 * and the buttons that delete one or redeliver a delivery.
 */
import { z } from 'zod';

export const WEBHOOK_EVENTS = ['sale.completed', 'sale.refunded', 'review.created', 'license.activated'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'sale.completed': 'A sale is completed',
  'sale.refunded': 'A sale is refunded',
  'review.created': 'A buyer reviews one of your agents',
  'license.activated': 'A licence is activated',
};

export const WEBHOOK_MESSAGES = {
  url: 'Enter the endpoint’s https:// address (at most 500 characters).',
  events: 'Choose at least one event.',
  tooMany: 'You have 10 endpoints, the most there can be. Delete one first.',
  added: 'Your endpoint’s signing secret is below. Copy it now: it is not shown again.',
  deleted: 'The endpoint is deleted: it receives nothing more.',
  notFound: 'This endpoint does not exist, or is not yours.',
  redelivered: 'The delivery is sent again in a few seconds.',
  redeliverTooSoon: 'A delivery can be sent again once a minute. Please wait a moment.',
  deliveryNotFound: 'This delivery does not exist, or is not yours.',
} as const;

/** `allowHttp`: development and tests (WEBHOOK_ALLOW_PRIVATE_ADDRESSES) also take http:// URLs. */
export function addEndpointSchema(allowHttp: boolean) {
  return z.object({
    intent: z.literal('add-endpoint'),
    url: z
      .string(WEBHOOK_MESSAGES.url)
      .trim()
      .max(500, WEBHOOK_MESSAGES.url)
      // Stored as the URL parser writes it (`HTTPS://Example.com/x` → `https://example.com/x`).
      .transform((value, context) => {
        try {
          const url = new URL(value);
          if ((url.protocol === 'https:' || (allowHttp && url.protocol === 'http:')) && !/\s/.test(value)) {
            return url.href;
          }
        } catch {
          // not a URL: the message below
        }
        context.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.url });
        return z.NEVER;
      })
      .pipe(z.string().max(500, WEBHOOK_MESSAGES.url)),
    events: z.preprocess(
      (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
      z.array(z.enum(WEBHOOK_EVENTS, WEBHOOK_MESSAGES.events)).min(1, WEBHOOK_MESSAGES.events),
    ),
  });
}

export const DeleteEndpointSchema = z.object({ intent: z.literal('delete-endpoint'), endpointId: z.guid() });
export const RedeliverSchema = z.object({ intent: z.literal('redeliver'), deliveryId: z.guid() });
