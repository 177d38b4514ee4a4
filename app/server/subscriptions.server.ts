/**
 * Membership subscriptions (ADR 018): the trusted server code that writes `subscriptions` and
 * `subscription_charges` (through the service role, after the route's guard) over the
 * payment-provider boundary. The database keeps one incomplete-or-live subscription per member
 * and one charge per confirmation form (its idempotency key).
 *
 *   liveSubscription  the member's active or past-due subscription (their tier), any client
 *   confirmPlan       subscribe, upgrade (prorated charge now), downgrade (at period end), keep;
 *                     charges use the member's default payment method (its label on the charge)
 *   setCancellation   cancel at the end of the period, or undo that until then
 */
import { tierById, type TierId } from '~/lib/membership';
import { fromCents, toCents } from '~/lib/money';
import {
  isPaidTier,
  monthlyCents,
  quotePlan,
  tierOfSubscription,
  type LiveSubscription,
  type PaidTierId,
  type PlanQuote,
  type PlanRefusal,
} from '~/lib/subscriptions';
import { unwrap } from '~/server/http-errors.server';
import { defaultPaymentMethod } from '~/server/payment-methods.server';
import type { PaymentProvider, SubscriptionCharge } from '~/server/payments/provider.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const UNAVAILABLE = 'We could not change your plan right now. Nothing was charged. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: UNAVAILABLE });

const SUBSCRIPTION_COLUMNS =
  'id, tier, status, scheduled_tier, current_period_start, current_period_end, cancel_at_period_end';

type SubscriptionRow = {
  id: string;
  tier: string;
  status: string;
  scheduled_tier: string | null;
  current_period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: boolean;
};

function toLive(row: SubscriptionRow, now: Date): LiveSubscription | null {
  if (row.status !== 'active' && row.status !== 'past_due') return null;
  if (!isPaidTier(row.tier) || !row.current_period_start || !row.current_period_end) return null;
  // Cancelled at the end of a period that is over: no tier any more (the renewal job closes it).
  if (row.cancel_at_period_end && Date.parse(row.current_period_end) <= now.getTime()) return null;
  return {
    id: row.id,
    tier: row.tier,
    status: row.status,
    scheduledTier: isPaidTier(row.scheduled_tier) ? row.scheduled_tier : null,
    periodStart: new Date(row.current_period_start).toISOString(),
    periodEnd: new Date(row.current_period_end).toISOString(),
    cancelAtPeriodEnd: row.cancel_at_period_end,
  };
}

/**
 * The member's live subscription, through any client: the request client reads only the
 * viewer's own (RLS), the service role anyone's.
 */
export async function liveSubscription(
  client: AppSupabaseClient,
  userId: string,
  now: Date = new Date(),
): Promise<LiveSubscription | null> {
  const rows = unwrap(
    await client
      .from('subscriptions')
      .select(SUBSCRIPTION_COLUMNS)
      .eq('user_id', userId)
      .in('status', ['active', 'past_due'])
      .limit(1),
    failure('subscription'),
  );
  return rows[0] ? toLive(rows[0], now) : null;
}

/** The member's tier: their live subscription's, else Basic. */
export async function currentTier(client: AppSupabaseClient, userId: string, now?: Date): Promise<TierId> {
  return tierOfSubscription(await liveSubscription(client, userId, now));
}

export type PlanOutcome =
  | { ok: true; quote: Exclude<PlanQuote, { kind: 'refused' }>; subscription: LiveSubscription; replayed: boolean }
  | { ok: false; refusal: PlanRefusal };

interface ConfirmInput {
  userId: string;
  tier: PaidTierId;
  /** From the confirmation form: the same submission twice is one charge. */
  idempotencyKey: string;
  /** From the confirmation form: the amount charged today that the member was shown, in cents. */
  shownChargeCents: number;
  now?: Date;
}

const describe = (tier: PaidTierId, what: string) => `${tierById(tier).name} membership - ${what}`;

/** A charge of this form seen before: the same confirmation again (its outcome), or nothing. */
async function replayOf(
  service: AppSupabaseClient,
  userId: string,
  idempotencyKey: string,
  now: Date,
): Promise<PlanOutcome | null> {
  const charge = unwrap(
    await service
      .from('subscription_charges')
      .select('status, kind, tier, amount')
      .eq('user_id', userId)
      .eq('idempotency_key', idempotencyKey)
      .maybeSingle(),
    failure('earlier charge'),
  );
  if (!charge) return null;
  if (charge.status === 'failed') return { ok: false, refusal: 'declined' };
  const subscription = await liveSubscription(service, userId, now);
  if (charge.status !== 'paid' || !subscription) return { ok: false, refusal: 'busy' };
  const chargeCents = toCents(Number(charge.amount));
  const quote: Exclude<PlanQuote, { kind: 'refused' }> =
    charge.kind === 'proration'
      ? {
          kind: 'upgrade',
          from: subscription.tier,
          tier: subscription.tier,
          chargeCents,
          daysLeft: 0,
          periodDays: 0,
          periodEnd: subscription.periodEnd,
        }
      : { kind: 'subscribe', tier: subscription.tier, chargeCents };
  return { ok: true, quote, subscription, replayed: true };
}

async function recordCharge(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  row: {
    userId: string;
    subscriptionId: string;
    tier: PaidTierId;
    kind: 'subscription' | 'proration';
    description: string;
    amountCents: number;
    idempotencyKey: string;
    /** The label of the payment method charged ("Visa •••• 4242"), null: none saved. */
    paymentMethod: string | null;
  },
) {
  const inserted = await service
    .from('subscription_charges')
    .insert({
      user_id: row.userId,
      subscription_id: row.subscriptionId,
      tier: row.tier,
      kind: row.kind,
      description: row.description,
      amount: fromCents(row.amountCents),
      status: 'pending',
      provider: provider.id,
      payment_method: row.paymentMethod,
      idempotency_key: row.idempotencyKey,
    })
    .select('id')
    .single();
  // The same form submitted at the same moment: the other request charges.
  if (inserted.error?.code === '23505') return null;
  return unwrap(inserted, failure('charge')).id;
}

async function settleCharge(
  service: AppSupabaseClient,
  chargeId: string,
  charge: SubscriptionCharge | { outcome: 'failed'; reason: string; paymentId?: undefined },
  period?: { start: string; end: string },
) {
  unwrap(
    await service
      .from('subscription_charges')
      .update({
        status: charge.outcome,
        status_reason: charge.outcome === 'failed' ? (charge.reason ?? null) : null,
        provider_payment_id: charge.paymentId ?? null,
        ...(period ? { period_start: period.start, period_end: period.end } : {}),
      })
      .eq('id', chargeId),
    failure('charge status'),
  );
}

async function subscribe(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { userId, tier, idempotencyKey }: ConfirmInput,
  now: Date,
): Promise<PlanOutcome> {
  // The placeholder row takes the member's one live slot: a second submission is refused here.
  const placed = await service
    .from('subscriptions')
    .insert({ user_id: userId, tier, status: 'incomplete', provider: provider.id })
    .select('id')
    .single();
  if (placed.error?.code === '23505') {
    return (await replayOf(service, userId, idempotencyKey, now)) ?? { ok: false, refusal: 'busy' };
  }
  const subscriptionId = unwrap(placed, failure('subscription')).id;
  const amountCents = monthlyCents(tier);
  const method = await defaultPaymentMethod(service, userId);
  const chargeId = await recordCharge(service, provider, {
    userId,
    subscriptionId,
    tier,
    kind: 'subscription',
    description: describe(tier, 'monthly'),
    amountCents,
    idempotencyKey,
    paymentMethod: method?.label ?? null,
  });
  const dropPlaceholder = async () =>
    unwrap(await service.from('subscriptions').delete().eq('id', subscriptionId), failure('subscription'));
  if (!chargeId) {
    await dropPlaceholder();
    return (await replayOf(service, userId, idempotencyKey, now)) ?? { ok: false, refusal: 'busy' };
  }

  let created;
  try {
    created = await provider.createSubscription({
      userId,
      tier,
      amountCents,
      currency: 'usd',
      description: describe(tier, 'monthly'),
      idempotencyKey,
      now,
      paymentMethodId: method?.id ?? null,
    });
  } catch (error) {
    console.error('Subscription could not be created:', error);
    await settleCharge(service, chargeId, { outcome: 'failed', reason: 'The payment could not be started.' });
    await dropPlaceholder();
    return { ok: false, refusal: 'declined' };
  }
  const period = { start: created.periodStart.toISOString(), end: created.periodEnd.toISOString() };
  await settleCharge(service, chargeId, created.charge, period);
  if (created.charge.outcome !== 'paid') {
    await dropPlaceholder();
    return { ok: false, refusal: 'declined' };
  }
  const row = unwrap(
    await service
      .from('subscriptions')
      .update({
        status: 'active',
        current_period_start: period.start,
        current_period_end: period.end,
        provider_subscription_id: created.subscriptionId,
        provider_customer_id: created.customerId,
      })
      .eq('id', subscriptionId)
      .select(SUBSCRIPTION_COLUMNS)
      .single(),
    failure('subscription'),
  );
  return {
    ok: true,
    quote: { kind: 'subscribe', tier, chargeCents: amountCents },
    subscription: toLive(row, now)!,
    replayed: false,
  };
}

/** The provider's id of a live subscription (needed for every change). */
async function providerIdOf(service: AppSupabaseClient, subscriptionId: string): Promise<string> {
  const row = unwrap(
    await service.from('subscriptions').select('provider_subscription_id').eq('id', subscriptionId).single(),
    failure('subscription'),
  );
  return row.provider_subscription_id ?? '';
}

/**
 * The plan `tier` for the member, as quoted by `quotePlan` at `now`: the caller has checked
 * sign-in and the section's permission; everything else is decided here and in the database.
 * Charged only when the quote's amount today is the one the member was shown.
 */
export async function confirmPlan(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  input: ConfirmInput,
): Promise<PlanOutcome> {
  const now = input.now ?? new Date();
  const replay = await replayOf(service, input.userId, input.idempotencyKey, now);
  if (replay) return replay;
  const current = await liveSubscription(service, input.userId, now);
  const quote = quotePlan(current, input.tier, now);
  if (quote.kind === 'refused') return { ok: false, refusal: quote.refusal };
  // The member agrees to the amount the page showed, and to no other (a renewal or another
  // change since moves the proration): the page is shown again with the new one.
  if (quote.chargeCents !== input.shownChargeCents) return { ok: false, refusal: 'price-changed' };
  if (quote.kind === 'subscribe' || !current) return subscribe(service, provider, input, now);

  const providerId = await providerIdOf(service, current.id);
  if (quote.kind === 'keep' || quote.kind === 'downgrade') {
    const scheduled = quote.kind === 'downgrade' ? quote.tier : null;
    // Only from the state the quote was made on: a concurrent change wins, this one is refused.
    const update = service
      .from('subscriptions')
      .update({ scheduled_tier: scheduled })
      .eq('id', current.id)
      .eq('tier', current.tier)
      .eq('cancel_at_period_end', false);
    const moved = unwrap(
      await (
        current.scheduledTier ? update.eq('scheduled_tier', current.scheduledTier) : update.is('scheduled_tier', null)
      ).select(SUBSCRIPTION_COLUMNS),
      failure('subscription'),
    );
    if (!moved[0]) return { ok: false, refusal: 'busy' };
    await provider.changeSubscription({
      subscriptionId: providerId,
      tier: scheduled ?? current.tier,
      effective: 'period_end',
      prorationCents: 0,
      description: describe(scheduled ?? current.tier, 'monthly'),
      idempotencyKey: input.idempotencyKey,
    });
    return { ok: true, quote, subscription: toLive(moved[0], now)!, replayed: false };
  }

  // Upgrade: claim the change (from the quoted plan only), charge the proration, undo on failure.
  const claimed = unwrap(
    await service
      .from('subscriptions')
      .update({ tier: quote.tier, scheduled_tier: null })
      .eq('id', current.id)
      .eq('tier', current.tier)
      .eq('status', 'active')
      .eq('cancel_at_period_end', false)
      .select(SUBSCRIPTION_COLUMNS),
    failure('subscription'),
  );
  if (!claimed[0]) return { ok: false, refusal: 'busy' };
  const revert = async () =>
    unwrap(
      await service
        .from('subscriptions')
        .update({ tier: current.tier, scheduled_tier: current.scheduledTier })
        .eq('id', current.id),
      failure('subscription'),
    );
  const description = describe(quote.tier, `upgrade from ${tierById(quote.from).name}, prorated`);
  const method = await defaultPaymentMethod(service, input.userId);
  const chargeId = await recordCharge(service, provider, {
    userId: input.userId,
    subscriptionId: current.id,
    tier: quote.tier,
    kind: 'proration',
    description,
    amountCents: quote.chargeCents,
    idempotencyKey: input.idempotencyKey,
    paymentMethod: method?.label ?? null,
  });
  if (!chargeId) {
    await revert();
    return { ok: false, refusal: 'busy' };
  }
  let charge: SubscriptionCharge | null;
  try {
    ({ charge } = await provider.changeSubscription({
      subscriptionId: providerId,
      tier: quote.tier,
      effective: 'now',
      prorationCents: quote.chargeCents,
      description,
      idempotencyKey: input.idempotencyKey,
      paymentMethodId: method?.id ?? null,
    }));
  } catch (error) {
    console.error('Subscription could not be changed:', error);
    charge = null;
  }
  const settled = charge ?? { outcome: 'failed' as const, reason: 'The payment could not be started.' };
  await settleCharge(service, chargeId, settled, { start: new Date(now).toISOString(), end: current.periodEnd });
  if (settled.outcome !== 'paid') {
    await revert();
    return { ok: false, refusal: 'declined' };
  }
  return { ok: true, quote, subscription: toLive(claimed[0], now)!, replayed: false };
}

export type CancellationOutcome = { ok: true; subscription: LiveSubscription } | { ok: false; refusal: PlanRefusal };

/**
 * Cancel at the end of the period (`cancel: true`), or undo that before the period ends
 * (`cancel: false`). Both are idempotent: asking twice is the same answer.
 */
export async function setCancellation(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { userId, cancel, now = new Date() }: { userId: string; cancel: boolean; now?: Date },
): Promise<CancellationOutcome> {
  const current = await liveSubscription(service, userId, now);
  if (!current) return { ok: false, refusal: 'not-subscribed' };
  if (current.cancelAtPeriodEnd === cancel) {
    return cancel ? { ok: true, subscription: current } : { ok: false, refusal: 'not-cancelling' };
  }
  await provider.setCancelAtPeriodEnd({ subscriptionId: await providerIdOf(service, current.id), cancel });
  const rows = unwrap(
    await service
      .from('subscriptions')
      .update({ cancel_at_period_end: cancel, canceled_at: cancel ? now.toISOString() : null })
      .eq('id', current.id)
      .gt('current_period_end', now.toISOString())
      .select(SUBSCRIPTION_COLUMNS),
    failure('subscription'),
  );
  const subscription = rows[0] ? toLive(rows[0], now) : null;
  return subscription ? { ok: true, subscription } : { ok: false, refusal: 'not-subscribed' };
}
