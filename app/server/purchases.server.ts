/**
 * Buying and refunding: the trusted server code that writes purchases (through the service role,
 * after the route's guard). The database holds the rules too (`public.guard_purchase`, the unique
 * live-purchase index): whatever races past the checks here is refused there.
 *
 *   quotePurchase   what buying would charge: the price for this buyer and the card (the order
 *                   summary states it; its form carries the price as the one shown)
 *   buyAgent        price from the database, tier discount, charged only when it is the price the
 *                   buyer was shown (`checkShownPrice`), one live purchase, provider payment
 *                   with the buyer's default payment method (its label stored on the purchase)
 *   refundPurchase  by the agent's seller or an admin, through the provider
 *   applyPaymentNotification  a provider's word on a payment, applied once per event id; a
 *                   completed purchase sends its emails (receipt, sale notice) when given a mailer
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMoney } from '~/lib/dashboard-format';
import { discountedPrice, tierById } from '~/lib/membership';
import { fromCents, toCents } from '~/lib/money';
import { forgetCatalogue } from '~/server/agents.server';
import { unwrap } from '~/server/http-errors.server';
import { notifyPurchaseCompleted, type ProductMailer } from '~/server/notifications.server';
import { defaultPaymentMethod } from '~/server/payment-methods.server';
import type { PaymentNotification, PaymentProvider } from '~/server/payments/provider.server';
import { currentTier } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { refusals, type Refusal } from '~/lib/refusal';

const UNAVAILABLE = 'We could not complete the purchase right now. Nothing was charged. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: UNAVAILABLE });

/** Why a purchase was not made, with the line the order summary shows. */
export const BUY_REFUSALS = refusals({
  own: { message: 'You are the seller of this agent, so you cannot buy it.', status: 409 },
  'not-on-sale': { message: 'This agent is not on sale.', status: 409 },
  owned: { message: 'This agent is already in your collection.', status: 409 },
  pending: { message: 'Your payment for this agent is still being processed.', status: 409 },
  failed: { message: 'The payment did not go through. Nothing was charged. Please try again.', status: 409 },
  declined: {
    message:
      'Your card was declined. Nothing was charged. Choose another default payment method on the Billing page and try again.',
    status: 402,
  },
  'price-changed': {
    message:
      'The price of this agent changed while you were buying it. Nothing was charged. Please check the new price.',
    status: 409,
  },
});
export type BuyRefusal = keyof typeof BUY_REFUSALS;

export type BuyOutcome =
  | { ok: true; purchaseId: string; amount: number; discountPercent: number; replayed: boolean }
  /** `priceCents`: what this buyer would pay now, when the refusal is about the price. */
  | { ok: false; refusal: BuyRefusal; priceCents?: number };

/** What the order summary answers a refusal with; a changed price is named, with the one shown. */
export function buyRefusal(outcome: Extract<BuyOutcome, { ok: false }>, shownCents?: number): Refusal {
  const refusal = BUY_REFUSALS[outcome.refusal];
  if (outcome.refusal !== 'price-changed' || outcome.priceCents === undefined) return refusal;
  const shown = shownCents === undefined ? '' : `, not the ${formatMoney(fromCents(shownCents))} you were shown`;
  return {
    ...refusal,
    message: `The price of this agent is now ${formatMoney(fromCents(outcome.priceCents))}${shown}. Nothing was charged. Please check the new price and buy again if you still want it.`,
  };
}

interface BuyInput {
  buyerId: string;
  agentId: string;
  /** From the form: the same submission twice is the same purchase. */
  idempotencyKey: string;
  /** From the form: what the buyer was shown and agreed to pay, in cents (`checkShownPrice`). */
  shownPriceCents: number;
  /** Sends the receipt and the sale notice once the purchase completes (notifications.server.ts). */
  mailer?: ProductMailer;
}

/** The buyer's tier discount: the tier of their live subscription (ADR 018), through any client. */
export async function discountPercentFor(client: AppSupabaseClient, buyerId: string): Promise<number> {
  return tierById(await currentTier(client, buyerId)).discountPercent;
}

/** List price less the tier discount, in cents (the discount rounded to the nearest cent). */
export function priceAfterDiscount(listPrice: number, discountPercent: number) {
  const listCents = toCents(listPrice);
  const amountCents = toCents(discountedPrice(listPrice, discountPercent));
  return { listCents, discountCents: listCents - amountCents, amountCents };
}

/**
 * The buyer agrees to the price they were shown, and to no other: the agent's price for this
 * buyer now (list price less their tier discount, `priceAfterDiscount`) must be exactly the
 * shown one, whichever way it moved. Every way of buying (the order summary's Confirm purchase
 * today, a cart or the API later) checks its line through here before anything is written or charged.
 */
export function checkShownPrice(
  agent: { price: number | string },
  shownPriceCents: number,
  discountPercent = 0,
):
  | { ok: true; price: ReturnType<typeof priceAfterDiscount> }
  | { ok: false; refusal: 'price-changed'; priceCents: number } {
  const price = priceAfterDiscount(Number(agent.price), discountPercent);
  return price.amountCents === shownPriceCents
    ? { ok: true, price }
    : { ok: false, refusal: 'price-changed', priceCents: price.amountCents };
}

/**
 * The buyer's side of every purchase: their tier discount and the card it charges (their default
 * payment method). One read for the order summary and the charge, so the summary names what is charged.
 */
export async function buyerTerms(client: AppSupabaseClient, buyerId: string) {
  const [discountPercent, method] = await Promise.all([
    discountPercentFor(client, buyerId),
    defaultPaymentMethod(client, buyerId),
  ]);
  return { discountPercent, method };
}

export interface PurchaseQuote extends ReturnType<typeof priceAfterDiscount> {
  discountPercent: number;
  /** The card the purchase charges ("Visa ending in 4242"); null without a saved one. */
  card: string | null;
}

/**
 * What buying the agent would charge this buyer now, as `buyAgent` works it out: the list price
 * less their tier discount, and their card. Any client (RLS: the buyer's own subscription and
 * cards). The order summary states it, and its form carries `amountCents` as the price shown.
 */
export async function quotePurchase(
  client: AppSupabaseClient,
  buyerId: string,
  agent: { price: number },
): Promise<PurchaseQuote> {
  const { discountPercent, method } = await buyerTerms(client, buyerId);
  return { ...priceAfterDiscount(agent.price, discountPercent), discountPercent, card: method?.name ?? null };
}

const PURCHASE_COLUMNS = 'id, agent_id, status, idempotency_key, amount, discount_percent, payment_intent_id';

/** The buyer's live (pending or completed) purchase of the agent, if any. */
async function livePurchase(service: AppSupabaseClient, buyerId: string, agentId: string) {
  const rows = unwrap(
    await service
      .from('purchases')
      .select(PURCHASE_COLUMNS)
      .eq('buyer_id', buyerId)
      .eq('agent_id', agentId)
      .in('status', ['pending', 'completed'])
      .limit(1),
    failure('existing purchases'),
  );
  return rows[0] ?? null;
}

type PurchaseRow = NonNullable<Awaited<ReturnType<typeof livePurchase>>>;

/** The purchase the buyer's confirmation with this key made, whatever became of it. */
async function purchaseOfKey(service: AppSupabaseClient, buyerId: string, idempotencyKey: string) {
  return unwrap(
    await service
      .from('purchases')
      .select(PURCHASE_COLUMNS)
      .eq('buyer_id', buyerId)
      .eq('idempotency_key', idempotencyKey)
      .maybeSingle(),
    failure('existing purchases'),
  );
}

/**
 * How long a confirmation waits for the same confirmation's charge, under way in another request
 * (a double submit, a retry), to settle before it answers that the payment is being processed.
 */
export const SAME_CONFIRMATION_WAIT_MS = 10_000;

/**
 * The same confirmation again (its key): what the first request reached, so both answer alike and
 * nothing is charged twice. A charge still under way in that request is waited for (up to
 * SAME_CONFIRMATION_WAIT_MS); completed is the purchase again, failed the first request's refusal.
 * The key of another agent's purchase buys nothing.
 */
async function replayOf(service: AppSupabaseClient, row: PurchaseRow, agentId: string): Promise<BuyOutcome> {
  if (row.agent_id !== agentId) return { ok: false, refusal: 'failed' };
  const deadline = Date.now() + SAME_CONFIRMATION_WAIT_MS;
  let current = row;
  for (let pause = 50; current.status === 'pending' && Date.now() < deadline; pause = Math.min(pause * 2, 500)) {
    await sleep(Math.min(pause, Math.max(deadline - Date.now(), 0)));
    current = unwrap(
      await service.from('purchases').select(PURCHASE_COLUMNS).eq('id', row.id).single(),
      failure('purchase status'),
    );
  }
  switch (current.status) {
    case 'completed':
      return {
        ok: true,
        purchaseId: current.id,
        amount: Number(current.amount),
        discountPercent: current.discount_percent,
        replayed: true,
      };
    case 'pending':
      return { ok: false, refusal: 'pending' };
    // Declined by the provider (it named the payment), or never started.
    case 'failed':
      return { ok: false, refusal: current.payment_intent_id ? 'declined' : 'failed' };
    default:
      return { ok: false, refusal: 'failed' };
  }
}

/** An existing live purchase: the same confirmation again (`replayOf`) or a second purchase (refused). */
function outcomeOfExisting(
  service: AppSupabaseClient,
  row: PurchaseRow,
  agentId: string,
  idempotencyKey: string,
): Promise<BuyOutcome> | BuyOutcome {
  if (row.idempotency_key === idempotencyKey) return replayOf(service, row, agentId);
  return { ok: false, refusal: row.status === 'completed' ? 'owned' : 'pending' };
}

/**
 * Buys the agent for the buyer. The caller has checked sign-in, the `place_orders` permission and
 * that the buyer may see the agent; everything else is decided here and in the database.
 */
export async function buyAgent(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { buyerId, agentId, idempotencyKey, shownPriceCents, mailer }: BuyInput,
): Promise<BuyOutcome> {
  const [agentRead, existing] = await Promise.all([
    service.from('agents').select('id, name, price, status, seller_id').eq('id', agentId).maybeSingle(),
    livePurchase(service, buyerId, agentId),
  ]);
  const agent = unwrap(agentRead, failure('agent'));
  if (!agent || agent.status !== 'published') return { ok: false, refusal: 'not-on-sale' };
  if (agent.seller_id === buyerId) return { ok: false, refusal: 'own' };
  if (existing) return outcomeOfExisting(service, existing, agentId, idempotencyKey);

  const { discountPercent, method } = await buyerTerms(service, buyerId);
  // Charged at the price checked here: the database refuses the purchase if the agent's price
  // moves before it is written (`guard_purchase`, list price = current price).
  const checked = checkShownPrice(agent, shownPriceCents, discountPercent);
  if (!checked.ok) return checked;
  const { price } = checked;
  const inserted = await service
    .from('purchases')
    .insert({
      buyer_id: buyerId,
      agent_id: agentId,
      list_price: fromCents(price.listCents),
      discount_percent: discountPercent,
      discount_amount: fromCents(price.discountCents),
      amount: fromCents(price.amountCents),
      status: 'pending',
      payment_provider: provider.id,
      payment_method: method?.label ?? null,
      idempotency_key: idempotencyKey,
    })
    .select('id')
    .single();
  if (inserted.error) {
    // Another request of this buyer got there first: this confirmation (a double submit, a
    // retry: the same key, even if its purchase is no longer live), or another one.
    if (inserted.error.code === '23505') {
      const same = await purchaseOfKey(service, buyerId, idempotencyKey);
      if (same) return replayOf(service, same, agentId);
      const winner = await livePurchase(service, buyerId, agentId);
      if (winner) return outcomeOfExisting(service, winner, agentId, idempotencyKey);
    }
    if (inserted.error.code === 'PT409') return { ok: false, refusal: 'not-on-sale' };
    if (inserted.error.code === '22023') return { ok: false, refusal: 'price-changed' };
    unwrap(inserted, failure('purchase'));
  }
  const purchaseId = inserted.data!.id;

  let payment;
  try {
    payment = await provider.createPayment({
      purchaseId,
      buyerId,
      amountCents: price.amountCents,
      currency: 'usd',
      description: agent.name,
      idempotencyKey,
      paymentMethodId: method?.id ?? null,
    });
  } catch (error) {
    console.error('Payment could not be created:', error);
    await settle(service, purchaseId, 'pending', {
      status: 'failed',
      status_reason: 'The payment could not be started.',
    });
    return { ok: false, refusal: 'failed' };
  }
  unwrap(
    await service.from('purchases').update({ payment_intent_id: payment.paymentIntentId }).eq('id', purchaseId),
    failure('payment reference'),
  );
  const applied = payment.settled
    ? await applyToPurchase(service, provider, purchaseId, payment.settled, { mailer })
    : 'ignored';
  forgetCatalogue();

  // Applied here, the outcome is the status; otherwise the payment is pending at the provider, or
  // its webhook got here first: the purchase says which.
  const appliedOutcome = applied === 'applied' ? payment.settled?.outcome : undefined;
  const status =
    appliedOutcome ??
    unwrap(await service.from('purchases').select('status').eq('id', purchaseId).single(), failure('purchase status'))
      .status;
  // Declined by the provider (the card), or failed for another reason.
  if (status === 'failed') return { ok: false, refusal: payment.settled?.outcome === 'failed' ? 'declined' : 'failed' };
  if (status === 'pending') return { ok: false, refusal: 'pending' };
  return { ok: true, purchaseId, amount: fromCents(price.amountCents), discountPercent, replayed: false };
}

type PurchaseUpdate = {
  status: 'completed' | 'failed' | 'refunded';
  status_reason?: string | null;
  refunded_by?: string;
};

/** Moves a purchase from `from` to the update's status; false when it was not in `from`. */
async function settle(service: AppSupabaseClient, purchaseId: string, from: string, update: PurchaseUpdate) {
  const rows = unwrap(
    await service.from('purchases').update(update).eq('id', purchaseId).eq('status', from).select('id'),
    failure('purchase status'),
  );
  return rows.length > 0;
}

/**
 * Applies what the provider reported: pending → completed or failed, completed → refunded. A
 * notification seen before (its event id) or about a purchase already moved changes nothing.
 */
export async function applyPaymentNotification(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  notification: PaymentNotification,
  extra: { refundedBy?: string; mailer?: ProductMailer } = {},
): Promise<'applied' | 'ignored'> {
  // An order's payment (a cart's checkout) moves every purchase of the order.
  const order = unwrap(
    await service
      .from('orders')
      .select('id')
      .eq('payment_provider', provider.id)
      .eq('payment_intent_id', notification.paymentIntentId)
      .maybeSingle(),
    failure('order of the payment'),
  );
  if (order) return applyToOrder(service, order.id, provider, notification, extra);
  const purchase = unwrap(
    await service
      .from('purchases')
      .select('id')
      .eq('payment_provider', provider.id)
      .eq('payment_intent_id', notification.paymentIntentId)
      .maybeSingle(),
    failure('purchase of the payment'),
  );
  if (!purchase) return 'ignored';
  return applyToPurchase(service, provider, purchase.id, notification, extra);
}

/**
 * `applyPaymentNotification` for an order's payment: the order and every purchase in it move
 * together, once per event id, in one transaction (`public.apply_order_payment`); each purchase
 * completed sends its emails.
 */
export async function applyToOrder(
  service: AppSupabaseClient,
  orderId: string,
  provider: PaymentProvider,
  notification: PaymentNotification,
  extra: { refundedBy?: string; mailer?: ProductMailer } = {},
): Promise<'applied' | 'ignored'> {
  const moved = unwrap(
    await service.rpc('apply_order_payment', {
      paid_order: orderId,
      event_id: notification.eventId,
      event_provider: provider.id,
      event_outcome: notification.outcome,
      event_reason: notification.reason ?? undefined,
      refunder: extra.refundedBy,
    }),
    failure('order payment'),
  );
  if (moved.length === 0) return 'ignored';
  forgetCatalogue();
  if (notification.outcome === 'completed' && extra.mailer) {
    for (const purchaseId of moved) await notifyPurchaseCompleted(service, extra.mailer, purchaseId);
  }
  return 'applied';
}

/** `applyPaymentNotification` once the purchase is known: the buy action knows its own. */
async function applyToPurchase(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  purchaseId: string,
  notification: PaymentNotification,
  extra: { refundedBy?: string; mailer?: ProductMailer },
): Promise<'applied' | 'ignored'> {
  const recorded = await service
    .from('payment_events')
    .insert({ id: notification.eventId, provider: provider.id, purchase_id: purchaseId, type: notification.outcome });
  if (recorded.error?.code === '23505') return 'ignored';
  unwrap(recorded, failure('payment event'));

  const from = notification.outcome === 'refunded' ? 'completed' : 'pending';
  const moved = await settle(service, purchaseId, from, {
    status: notification.outcome,
    status_reason: notification.reason ?? null,
    ...(notification.outcome === 'refunded' && extra.refundedBy ? { refunded_by: extra.refundedBy } : {}),
  });
  if (moved) forgetCatalogue();
  if (moved && notification.outcome === 'completed' && extra.mailer) {
    await notifyPurchaseCompleted(service, extra.mailer, purchaseId);
  }
  return moved ? 'applied' : 'ignored';
}

export const REFUND_REFUSALS = refusals({
  'not-found': { message: 'This purchase does not exist.', status: 404 },
  forbidden: { message: 'Only the seller of this agent or an administrator can refund this purchase.', status: 403 },
  'not-completed': { message: 'Only a completed purchase can be refunded.', status: 409 },
  pending: { message: 'The refund has been requested and is being processed.', status: 202 },
});
export type RefundRefusal = keyof typeof REFUND_REFUSALS;

/**
 * Refunds a completed purchase in full: by the agent's seller (their own sales) or an admin.
 * `actor.isAdmin` must come from the viewer's role, checked by the route.
 */
export async function refundPurchase(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { actor, purchaseId, reason }: { actor: { id: string; isAdmin: boolean }; purchaseId: string; reason: string },
): Promise<{ ok: true } | { ok: false; refusal: RefundRefusal }> {
  const purchase = unwrap(
    await service
      .from('purchases')
      .select('id, status, amount, seller_id, payment_provider, payment_intent_id')
      .eq('id', purchaseId)
      .maybeSingle(),
    failure('purchase'),
  );
  if (!purchase) return { ok: false, refusal: 'not-found' };
  if (!actor.isAdmin && purchase.seller_id !== actor.id) return { ok: false, refusal: 'forbidden' };
  if (purchase.status !== 'completed') return { ok: false, refusal: 'not-completed' };

  // Seeded and pre-checkout purchases have no payment at this provider: refunded as records only.
  // A free purchase (alone, or a line of an order) moved no money either.
  const atThisProvider =
    purchase.payment_provider === provider.id && purchase.payment_intent_id && toCents(Number(purchase.amount)) > 0;
  if (!atThisProvider) {
    const moved = await settle(service, purchase.id, 'completed', {
      status: 'refunded',
      status_reason: reason,
      refunded_by: actor.id,
    });
    if (moved) forgetCatalogue();
    return moved ? { ok: true } : { ok: false, refusal: 'not-completed' };
  }
  const { settled } = await provider.refund({
    paymentIntentId: purchase.payment_intent_id!,
    purchaseId: purchase.id,
    amountCents: toCents(Number(purchase.amount)),
    reason,
  });
  if (!settled) return { ok: false, refusal: 'pending' };
  await applyToPurchase(service, provider, purchase.id, settled, { refundedBy: actor.id });
  return { ok: true };
}
