/**
 * Saved payment methods: the trusted server code that writes `payment_methods`
 * (through the service role, after the route's guard) over the payment-provider boundary. The
 * card's number and CVC go to the provider only: never to the database, a log or a page. What
 * is stored is the provider's id, the brand, the last four digits and the expiry.
 *
 *   listPaymentMethods     the member's cards, the default first, any client (RLS: their own)
 *   addPaymentMethod       saved through the provider; the first card becomes the default
 *   setDefaultPaymentMethod, editPaymentMethodExpiry, removePaymentMethod (never the default)
 *   defaultPaymentMethod   what charges use: the provider's id, the label stored on the charge, its name
 */
import { paymentMethodLabel, paymentMethodName } from '~/lib/payment-methods';
import { unwrap } from '~/server/http-errors.server';
import type { CardDetails, PaymentProvider } from '~/server/payments/provider.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { refusals } from '~/lib/refusal';

const UNAVAILABLE = 'We could not update your payment methods right now. Please try again in a moment.';
const failure = (what: string) => ({ what, unavailable: UNAVAILABLE });

/** A member may keep this many cards. */
export const MAX_PAYMENT_METHODS = 10;

/** Why a change to a payment method was refused, with the line Billing shows and its status. */
export const PAYMENT_METHOD_REFUSALS = refusals({
  'not-found': { message: 'This payment method does not exist.', status: 404 },
  default: {
    message: 'Your default payment method cannot be removed. Make another card the default first.',
    status: 409,
  },
  'too-many': {
    message: `You can save up to ${MAX_PAYMENT_METHODS} payment methods. Remove one before adding another.`,
    status: 409,
  },
  unavailable: { message: UNAVAILABLE, status: 503 },
});
export type PaymentMethodRefusal = keyof typeof PAYMENT_METHOD_REFUSALS;

export interface PaymentMethodView {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  isDefault: boolean;
  label: string;
}

const COLUMNS = 'id, provider, provider_method_id, brand, last4, exp_month, exp_year, is_default';

type Row = {
  id: string;
  provider_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: boolean;
};

const toView = (row: Row): PaymentMethodView => ({
  id: row.id,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
  isDefault: row.is_default,
  label: paymentMethodLabel(row),
});

/** The member's saved cards, the default first, then oldest first. */
export async function listPaymentMethods(client: AppSupabaseClient, userId: string): Promise<PaymentMethodView[]> {
  const rows = unwrap(
    await client
      .from('payment_methods')
      .select(COLUMNS)
      .eq('user_id', userId)
      .order('is_default', { ascending: false })
      .order('created_at')
      .order('id'),
    failure('payment methods'),
  );
  return rows.map(toView);
}

/**
 * The card charges use (the member's default), or null: the provider charges as it does without
 * one. Any client (RLS: their own): the order summary names the card the purchase then charges.
 */
export async function defaultPaymentMethod(
  client: AppSupabaseClient,
  userId: string,
): Promise<{ id: string; label: string; name: string } | null> {
  const row = unwrap(
    await client.from('payment_methods').select(COLUMNS).eq('user_id', userId).eq('is_default', true).maybeSingle(),
    failure('default payment method'),
  );
  return row ? { id: row.provider_method_id, label: paymentMethodLabel(row), name: paymentMethodName(row) } : null;
}

async function ownRow(service: AppSupabaseClient, userId: string, methodId: string): Promise<Row | null> {
  return unwrap(
    await service.from('payment_methods').select(COLUMNS).eq('id', methodId).eq('user_id', userId).maybeSingle(),
    failure('payment method'),
  );
}

export type AddOutcome =
  | { ok: true; method: PaymentMethodView }
  /** `declined`: the provider's reason (a decline, an invalid number), said to the member as is. */
  | { ok: false; refusal: PaymentMethodRefusal }
  | { ok: false; declined: string };

/**
 * Saves a card through the provider and records what it gave back. The first card becomes the
 * default. The caller has checked sign-in and the section's permission.
 */
export async function addPaymentMethod(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { userId, card }: { userId: string; card: CardDetails },
): Promise<AddOutcome> {
  const existing = unwrap(
    await service.from('payment_methods').select('is_default').eq('user_id', userId),
    failure('payment methods'),
  );
  if (existing.length >= MAX_PAYMENT_METHODS) return { ok: false, refusal: 'too-many' };

  let saved;
  try {
    saved = await provider.savePaymentMethod({ userId, card });
  } catch (error) {
    // The error, never the card: a provider's error names no card number.
    console.error('Payment method could not be saved:', error instanceof Error ? error.message : 'unknown error');
    return { ok: false, refusal: 'unavailable' };
  }
  if (!saved.ok) return { ok: false, declined: saved.reason };

  const insert = (isDefault: boolean) =>
    service
      .from('payment_methods')
      .insert({
        user_id: userId,
        provider: provider.id,
        provider_method_id: saved.method.id,
        brand: saved.method.brand,
        last4: saved.method.last4,
        exp_month: saved.method.expMonth,
        exp_year: saved.method.expYear,
        is_default: isDefault,
      })
      .select(COLUMNS)
      .single();
  let inserted = await insert(!existing.some((row) => row.is_default));
  // Another card became the default meanwhile (two adds at once): this one is not.
  if (inserted.error?.code === '23505' && inserted.error.message.includes('one_default'))
    inserted = await insert(false);
  return { ok: true, method: toView(unwrap(inserted, failure('payment method'))) };
}

type Change = { ok: true; method: PaymentMethodView } | { ok: false; refusal: PaymentMethodRefusal };

/** Makes one of the member's cards the default (the one charges use). */
export async function setDefaultPaymentMethod(
  service: AppSupabaseClient,
  { userId, methodId }: { userId: string; methodId: string },
): Promise<Change> {
  const done = unwrap(
    await service.rpc('set_default_payment_method', { target_user: userId, target_method: methodId }),
    failure('default payment method'),
  );
  const row = done ? await ownRow(service, userId, methodId) : null;
  return row ? { ok: true, method: toView(row) } : { ok: false, refusal: 'not-found' };
}

/** Edit: a new expiry for a saved card (the route's schema has checked it is ahead). */
export async function editPaymentMethodExpiry(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { userId, methodId, expMonth, expYear }: { userId: string; methodId: string; expMonth: number; expYear: number },
): Promise<Change> {
  const row = await ownRow(service, userId, methodId);
  if (!row) return { ok: false, refusal: 'not-found' };
  try {
    await provider.updatePaymentMethodExpiry({ methodId: row.provider_method_id, expMonth, expYear });
  } catch (error) {
    console.error('Payment method expiry could not be changed:', error instanceof Error ? error.message : error);
    return { ok: false, refusal: 'unavailable' };
  }
  const updated = unwrap(
    await service
      .from('payment_methods')
      .update({ exp_month: expMonth, exp_year: expYear })
      .eq('id', methodId)
      .eq('user_id', userId)
      .select(COLUMNS),
    failure('payment method'),
  );
  return updated[0] ? { ok: true, method: toView(updated[0]) } : { ok: false, refusal: 'not-found' };
}

/** Remove: any card but the default (409), forgotten here first, then at the provider. */
export async function removePaymentMethod(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  { userId, methodId }: { userId: string; methodId: string },
): Promise<Change> {
  const row = await ownRow(service, userId, methodId);
  if (!row) return { ok: false, refusal: 'not-found' };
  if (row.is_default) return { ok: false, refusal: 'default' };
  const removed = unwrap(
    await service
      .from('payment_methods')
      .delete()
      .eq('id', methodId)
      .eq('user_id', userId)
      .eq('is_default', false)
      .select(COLUMNS),
    failure('payment method'),
  );
  // It became the default between the read and the delete.
  if (!removed[0]) return { ok: false, refusal: 'default' };
  try {
    await provider.detachPaymentMethod({ methodId: row.provider_method_id });
  } catch (error) {
    // Nothing here refers to it any more; the provider keeps an unused card.
    console.error('Payment method could not be detached:', error instanceof Error ? error.message : error);
  }
  return { ok: true, method: toView(removed[0]) };
}
