/**
 * Saved payment methods against the embedded backend (real supabase-js clients, real database
 * rules): the first card is the default, one default per member, Remove refused for the
 * default, Edit changes the expiry, members read only their own and write none, no card number
 * is stored; purchases and plan charges use the default card and record its label, and a
 * declining card leaves the tier unchanged and the purchase failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newMember as createMember } from '../../tests/support/subscribers';
import { anonClient, serviceClient } from '../../tests/support/clients';
import { isHostedTarget, startContractTarget, type ContractTarget } from '../../tests/support/contract-target';
import {
  addPaymentMethod,
  defaultPaymentMethod,
  editPaymentMethodExpiry,
  listPaymentMethods,
  removePaymentMethod,
  setDefaultPaymentMethod,
} from '~/server/payment-methods.server';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { buyAgent } from '~/server/purchases.server';
import { toCents } from '~/lib/money';
import { monthlyCents } from '~/lib/subscriptions';
import { confirmPlan, currentTier } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const PASSWORD = 'payment-methods-password';
const YEAR = new Date().getUTCFullYear() + 2;
const card = (number: string) => ({ number, expMonth: 8, expYear: YEAR, cvc: '123' });
const SELLER = '00000000-0000-4000-8000-000000000002'; // demo_seller

describe.skipIf(isHostedTarget)('payment methods service', () => {
  let target: ContractTarget;
  let service: AppSupabaseClient;

  beforeAll(async () => {
    target = await startContractTarget({ seed: true });
    service = serviceClient(target) as unknown as AppSupabaseClient;
  });
  afterAll(() => target?.close());

  const newMember = () => createMember(target, PASSWORD, 'cards');

  async function add(userId: string, number: string) {
    const outcome = await addPaymentMethod(service, testPaymentProvider, { userId, card: card(number) });
    if (!outcome.ok) throw new Error(`not added: ${JSON.stringify(outcome)}`);
    return outcome.method;
  }

  it('adds cards (the first is the default), switches the default, edits, and removes only non-defaults', async () => {
    const member = await newMember();
    const visa = await add(member.id, '4242 4242 4242 4242');
    expect(visa).toMatchObject({ brand: 'Visa', last4: '4242', expMonth: 8, expYear: YEAR, isDefault: true });
    expect(visa.label).toBe('Visa •••• 4242');
    const mastercard = await add(member.id, '5555555555554444');
    expect(mastercard.isDefault).toBe(false);
    expect((await listPaymentMethods(service, member.id)).map((m) => [m.label, m.isDefault])).toEqual([
      ['Visa •••• 4242', true],
      ['Mastercard •••• 4444', false],
    ]);

    // The declined card is refused with the provider's words and saves nothing.
    expect(
      await addPaymentMethod(service, testPaymentProvider, { userId: member.id, card: card('4000000000000002') }),
    ).toEqual({ ok: false, declined: 'Your card was declined.' });
    expect(await listPaymentMethods(service, member.id)).toHaveLength(2);

    // Remove: refused for the default (409), done for another.
    const refused = await removePaymentMethod(service, testPaymentProvider, { userId: member.id, methodId: visa.id });
    expect(refused).toEqual({ ok: false, refusal: 'default' });

    expect(await setDefaultPaymentMethod(service, { userId: member.id, methodId: mastercard.id })).toMatchObject({
      ok: true,
      method: { isDefault: true },
    });
    expect((await defaultPaymentMethod(service, member.id))?.label).toBe('Mastercard •••• 4444');
    expect(
      await editPaymentMethodExpiry(service, testPaymentProvider, {
        userId: member.id,
        methodId: visa.id,
        expMonth: 3,
        expYear: YEAR + 3,
      }),
    ).toMatchObject({ ok: true, method: { expMonth: 3, expYear: YEAR + 3 } });
    expect(
      await removePaymentMethod(service, testPaymentProvider, { userId: member.id, methodId: visa.id }),
    ).toMatchObject({ ok: true });
    expect((await listPaymentMethods(service, member.id)).map((m) => m.label)).toEqual(['Mastercard •••• 4444']);

    // Another member's card is not theirs to change.
    const other = await newMember();
    expect(await setDefaultPaymentMethod(service, { userId: other.id, methodId: mastercard.id })).toEqual({
      ok: false,
      refusal: 'not-found',
    });
    expect(
      await removePaymentMethod(service, testPaymentProvider, { userId: other.id, methodId: mastercard.id }),
    ).toEqual({ ok: false, refusal: 'not-found' });

    // Nothing stored holds a card number.
    const { data } = await service.from('payment_methods').select('*').eq('user_id', member.id);
    expect(JSON.stringify(data)).not.toMatch(/4242424242424242|5555555555554444/);
    expect(Object.keys(data![0]!).sort()).toEqual(
      [
        'brand',
        'created_at',
        'exp_month',
        'exp_year',
        'id',
        'is_default',
        'last4',
        'provider',
        'provider_method_id',
        'user_id',
      ].sort(),
    );
  });

  it('keeps one default per member in the database', async () => {
    const member = await newMember();
    await add(member.id, '4242424242424242');
    const second = await service.from('payment_methods').insert({
      user_id: member.id,
      provider: 'test',
      provider_method_id: 'pm_test_4444_x',
      brand: 'Mastercard',
      last4: '4444',
      exp_month: 1,
      exp_year: YEAR,
      is_default: true,
    });
    expect(second.error?.code).toBe('23505');
  });

  it('lets members read only their own cards and write none', async () => {
    const member = await newMember();
    const other = await newMember();
    const mine = await add(member.id, '4242424242424242');
    await add(other.id, '5555555555554444');
    const client = anonClient(target);
    expect((await client.auth.signInWithPassword({ email: member.email, password: PASSWORD })).error).toBeNull();
    const own = client as unknown as AppSupabaseClient;
    expect((await listPaymentMethods(own, member.id)).map((m) => m.id)).toEqual([mine.id]);
    expect(await listPaymentMethods(own, other.id)).toEqual([]);
    const update = await client.from('payment_methods').update({ last4: '0000' }).eq('id', mine.id);
    expect(update.error?.code).toBe('42501');
    const rpc = await client.rpc('set_default_payment_method', { target_user: member.id, target_method: mine.id });
    expect(rpc.error).not.toBeNull();
  });

  it('charges the default card and records its label; a declining card changes nothing', async () => {
    const member = await newMember();
    // No saved card: the test provider charges as before, with no label.
    const { data: agents } = await service
      .from('agents')
      .select('id, price')
      .eq('seller_id', SELLER)
      .eq('status', 'published')
      .limit(2);
    const first = await buyAgent(service, testPaymentProvider, {
      buyerId: member.id,
      agentId: agents![0]!.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents: toCents(Number(agents![0]!.price)), // a new member: Basic, no discount
    });
    expect(first).toMatchObject({ ok: true });
    const purchase = async (agentId: string) =>
      (
        await service
          .from('purchases')
          .select('status, status_reason, payment_method')
          .eq('buyer_id', member.id)
          .eq('agent_id', agentId)
          .order('created_at', { ascending: false })
          .limit(1)
          .single()
      ).data;
    expect(await purchase(agents![0]!.id)).toMatchObject({ status: 'completed', payment_method: null });

    // The declining card as default: the purchase fails with a clear refusal, the plan stays Basic.
    await add(member.id, '4000000000000341');
    const declined = await buyAgent(service, testPaymentProvider, {
      buyerId: member.id,
      agentId: agents![1]!.id,
      idempotencyKey: crypto.randomUUID(),
      shownPriceCents: toCents(Number(agents![1]!.price)), // a new member: Basic, no discount
    });
    expect(declined).toEqual({ ok: false, refusal: 'declined' });
    expect(await purchase(agents![1]!.id)).toMatchObject({
      status: 'failed',
      status_reason: 'Your card was declined.',
      payment_method: 'Visa •••• 0341',
    });
    const plan = await confirmPlan(service, testPaymentProvider, {
      userId: member.id,
      tier: 'premium',
      idempotencyKey: crypto.randomUUID(),
      shownChargeCents: monthlyCents('premium'),
    });
    expect(plan).toEqual({ ok: false, refusal: 'declined' });
    expect(await currentTier(service, member.id)).toBe('basic');

    // A good default card: the plan is charged to it and its label recorded.
    const visa = await add(member.id, '4242424242424242');
    await setDefaultPaymentMethod(service, { userId: member.id, methodId: visa.id });
    expect(
      await confirmPlan(service, testPaymentProvider, {
        userId: member.id,
        tier: 'premium',
        idempotencyKey: crypto.randomUUID(),
        shownChargeCents: monthlyCents('premium'),
      }),
    ).toMatchObject({ ok: true });
    expect(await currentTier(service, member.id)).toBe('premium');
    const { data: charges } = await service
      .from('subscription_charges')
      .select('status, payment_method')
      .eq('user_id', member.id)
      .order('created_at');
    expect(charges).toEqual([
      { status: 'failed', payment_method: 'Visa •••• 0341' },
      { status: 'paid', payment_method: 'Visa •••• 4242' },
    ]);
  });
});
