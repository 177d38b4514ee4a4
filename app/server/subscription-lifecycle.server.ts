/**
 * What a provider reports about a subscription after the request that changed it — a renewal
 * paid, a renewal failed, the subscription ended — from the renewal job (the test-mode provider,
 * app/server/renewals.server.ts) or a webhook (a real provider). Applied once per event id, in
 * one database transaction (`public.apply_subscription_notification`, migration
 * 20261128000300_renewals.sql):
 *
 *   renewed   the new period starts; a scheduled downgrade becomes the tier; status active; a
 *             paid 'renewal' charge (amount, payment method label, idempotency key `event:<id>`)
 *   past_due  status past_due (the tier holds through the grace period) and a failed 'renewal'
 *             charge with the reason
 *   canceled  status canceled: the member is Basic again
 */
import { fromCents } from '~/lib/money';
import { unwrap } from '~/server/http-errors.server';
import type { SubscriptionNotification } from '~/server/payments/provider.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

/**
 * 'applied': the records moved; 'duplicate': this event id was applied before; 'ignored': no
 * subscription has this provider id (nothing recorded, a later delivery can still apply), or
 * there was nothing to move (a late renewal of a past period, an event about an ended one).
 */
export type SubscriptionNotificationOutcome = 'applied' | 'duplicate' | 'ignored';

export async function applySubscriptionNotification(
  service: AppSupabaseClient,
  notification: SubscriptionNotification,
): Promise<SubscriptionNotificationOutcome> {
  const { charge, period } = notification;
  const result = unwrap(
    await service.rpc('apply_subscription_notification', {
      event: notification.eventId,
      subscription_ref: notification.providerSubscriptionId,
      outcome: notification.outcome,
      ...(period ? { new_period_start: period.start.toISOString(), new_period_end: period.end.toISOString() } : {}),
      ...(charge
        ? {
            payment_ref: charge.paymentId,
            charged: fromCents(charge.amountCents),
            ...(charge.paymentMethod ? { method_label: charge.paymentMethod } : {}),
          }
        : {}),
      ...(notification.reason ? { reason: notification.reason } : {}),
    }),
    'subscription event',
  );
  return result as SubscriptionNotificationOutcome;
}
