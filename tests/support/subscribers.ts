/**
 * A new member with a test-mode subscription, for the tests of renewals and of what a provider
 * reports about subscriptions (app/server/*.server.test.ts on the embedded backend).
 */
import { monthlyCents, type PaidTierId } from '~/lib/subscriptions';
import { testPaymentProvider } from '~/server/payments/test-provider.server';
import { confirmPlan } from '~/server/subscriptions.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { uniqueEmail } from './auth-helpers';
import { serviceClient } from './clients';
import type { ContractTarget } from './contract-target';

/** A new confirmed member (no subscription) signed up with `password`: their id and email. */
export async function newMember(
  target: ContractTarget,
  password: string,
  prefix = 'member',
): Promise<{ id: string; email: string }> {
  const email = uniqueEmail(prefix);
  const { data, error } = await serviceClient(target).auth.admin.createUser({ email, password, email_confirm: true });
  if (error) throw error;
  return { id: data.user!.id, email };
}

/**
 * `count` accounts written straight into auth.users by the database owner (the sign-up trigger
 * makes their profiles), fast enough for thousands: `<prefix><k>@<domain>`, username
 * `<prefix>_<k>`, k from 1, no password (they never sign in).
 */
export async function insertAccounts(target: ContractTarget, prefix: string, domain: string, count: number) {
  await target.backend!.db.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_user_meta_data, created_at, updated_at)
     select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
            $1 || k || '@' || $2, '', jsonb_build_object('username', $1 || '_' || k), now(), now()
       from generate_series(1, $3::int) k`,
    [prefix, domain, count],
  );
}

/** Signs up a member and subscribes them to `tier` at `start`: their id and the provider's subscription id. */
export async function newSubscriber(
  target: ContractTarget,
  tier: PaidTierId,
  start: Date,
): Promise<{ userId: string; providerId: string }> {
  const { id: userId } = await newMember(target, 'subscriber-password', 'subscriber');
  const service = serviceClient(target) as unknown as AppSupabaseClient;
  const outcome = await confirmPlan(service, testPaymentProvider, {
    userId,
    tier,
    idempotencyKey: crypto.randomUUID(),
    shownChargeCents: monthlyCents(tier),
    now: start,
  });
  if (!outcome.ok) throw new Error(`Could not subscribe the test member: ${outcome.refusal}`);
  const row = await service.from('subscriptions').select('provider_subscription_id').eq('user_id', userId).single();
  if (row.error) throw row.error;
  return { userId, providerId: row.data.provider_subscription_id! };
}

/** The member's renewal charges, oldest first (amounts as numbers, periods as ISO strings). */
export async function renewalChargesOf(service: AppSupabaseClient, userId: string) {
  const { data, error } = await service
    .from('subscription_charges')
    .select(
      'tier, amount, status, status_reason, payment_method, description, idempotency_key, period_start, period_end',
    )
    .eq('user_id', userId)
    .eq('kind', 'renewal')
    .order('created_at');
  if (error) throw error;
  const iso = (value: string | null) => value && new Date(value).toISOString();
  return data.map((row) => ({
    ...row,
    amount: Number(row.amount),
    period_start: iso(row.period_start),
    period_end: iso(row.period_end),
  }));
}
