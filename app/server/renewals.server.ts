/**
 * The renewal job (ADR 018): for every subscription whose period has ended —
 *
 *   cancel_at_period_end   → canceled (the member is Basic again)
 *   past_due past the grace (GRACE_DAYS after the period's end) → canceled
 *   active, or past_due not tried for a day → the provider renews it (`renewSubscription`,
 *                            the member's default payment method) and the outcome is applied
 *                            (`applySubscriptionNotification`): a new period, or past_due
 *
 * Several servers may run it: a run starts only after claiming the `job_leases` row 'renewals'
 * (one UPDATE … WHERE expires_at < now RETURNING) and releases it at the end; each renewal attempt
 * is also claimed on its subscription row, and every outcome is applied once per event id, so a
 * second run at the same moment charges nothing. The business clock (`now`) is injectable; the
 * lease runs on the wall clock, which is what other servers share.
 *
 * `scheduleRenewals` runs it in process, started with the server (server/app.ts).
 */
import { tierById } from '~/lib/membership';
import { DAY_MS, graceEnd, isPaidTier, monthlyCents } from '~/lib/subscriptions';
import { unwrap } from '~/server/http-errors.server';
import { claimLease, extendLease, releaseLease, scheduleJob, type JobSchedule } from '~/server/jobs.server';
import { defaultPaymentMethod } from '~/server/payment-methods.server';
import type { PaymentProvider, SubscriptionNotification } from '~/server/payments/provider.server';
import { applySubscriptionNotification } from '~/server/subscription-lifecycle.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export const RENEWAL_LEASE = 'renewals';
/** How long a claimed lease holds without being extended (a server that dies loses it then). */
const LEASE_MS = 10 * 60 * 1000;
const PAGE_SIZE = 100;

/** A member's default payment method: its provider id and the label charges record. */
type ChargeMethod = { id: string; label: string } | null;

export interface RenewalOptions {
  service: AppSupabaseClient;
  provider: PaymentProvider;
  /** The job's clock: what counts as due, and the moment a renewal is attempted. */
  now?: Date;
  /** The member's default saved payment method, or null (none saved); `defaultPaymentMethod` unless a test says otherwise. */
  paymentMethodOf?: (userId: string) => Promise<ChargeMethod>;
  /** Only this member's subscriptions (the development door that moves one member's clock). */
  onlyUserId?: string;
}

export interface RenewalReport {
  /** False: another server held the lease, nothing was done. */
  leased: boolean;
  renewed: number;
  pastDue: number;
  canceled: number;
  /** Subscriptions that could not be handled this time (logged; tried again next run). */
  errors: number;
}

type DueRow = {
  id: string;
  user_id: string;
  tier: string;
  scheduled_tier: string | null;
  status: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  provider_subscription_id: string | null;
  last_renewal_attempt_at: string | null;
};

export async function runRenewals({
  service,
  provider,
  now = new Date(),
  paymentMethodOf = (userId) => defaultPaymentMethod(service, userId),
  onlyUserId,
}: RenewalOptions): Promise<RenewalReport> {
  const report: RenewalReport = { leased: false, renewed: 0, pastDue: 0, canceled: 0, errors: 0 };
  const lease = await claimLease(service, RENEWAL_LEASE, LEASE_MS);
  if (!lease) return report;
  report.leased = true;
  try {
    let after = '';
    for (;;) {
      const page = await dueSubscriptions(service, provider, now, after, onlyUserId);
      for (const row of page) {
        try {
          const outcome = await handle(service, provider, row, now, paymentMethodOf);
          if (outcome === 'renewed') report.renewed += 1;
          else if (outcome === 'past_due') report.pastDue += 1;
          else if (outcome === 'canceled') report.canceled += 1;
        } catch (error) {
          report.errors += 1;
          console.error(`Renewal of subscription ${row.id} failed:`, error);
        }
      }
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1]!.id;
      // A long run keeps its lease; one that lost it (expired, taken) stops here.
      if (!(await extendLease(service, lease))) break;
    }
  } finally {
    await releaseLease(service, lease);
  }
  return report;
}

async function dueSubscriptions(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  now: Date,
  after: string,
  onlyUserId?: string,
): Promise<DueRow[]> {
  const all = service
    .from('subscriptions')
    .select(
      'id, user_id, tier, scheduled_tier, status, current_period_end, cancel_at_period_end, provider_subscription_id, last_renewal_attempt_at',
    )
    .eq('provider', provider.id)
    .in('status', ['active', 'past_due'])
    .lte('current_period_end', now.toISOString())
    .order('id')
    .limit(PAGE_SIZE);
  const query = onlyUserId ? all.eq('user_id', onlyUserId) : all;
  return unwrap(await (after ? query.gt('id', after) : query), 'due subscriptions') as DueRow[];
}

type Handled = 'renewed' | 'past_due' | 'canceled' | 'skipped';

async function handle(
  service: AppSupabaseClient,
  provider: PaymentProvider,
  row: DueRow,
  now: Date,
  paymentMethodOf: (userId: string) => Promise<ChargeMethod>,
): Promise<Handled> {
  const providerId = row.provider_subscription_id;
  if (!providerId) return 'skipped';
  const periodEnd = new Date(row.current_period_end);
  const end = async (why: string, reason: string): Promise<Handled> => {
    const applied = await applySubscriptionNotification(service, {
      eventId: `job_${why}_${row.id}_${periodEnd.getTime()}`,
      providerSubscriptionId: providerId,
      outcome: 'canceled',
      reason,
    });
    return applied === 'applied' ? 'canceled' : 'skipped';
  };
  if (row.cancel_at_period_end) return end('cancel', 'Cancelled at the end of the billing period.');
  if (row.status === 'past_due' && now >= graceEnd(periodEnd)) {
    return end('grace', 'The renewal was not paid within the grace period.');
  }

  // Once a day at most: claim this attempt on the row (only from the state read above).
  const lastAttempt = row.last_renewal_attempt_at;
  if (lastAttempt && Date.parse(lastAttempt) > now.getTime() - DAY_MS) return 'skipped';
  const claim = service
    .from('subscriptions')
    .update({ last_renewal_attempt_at: now.toISOString() })
    .eq('id', row.id)
    .eq('status', row.status)
    .eq('current_period_end', row.current_period_end);
  const claimed = unwrap(
    await (
      lastAttempt ? claim.eq('last_renewal_attempt_at', lastAttempt) : claim.is('last_renewal_attempt_at', null)
    ).select('id'),
    'renewal attempt',
  );
  if (claimed.length === 0) return 'skipped';

  const tier = isPaidTier(row.scheduled_tier) ? row.scheduled_tier : isPaidTier(row.tier) ? row.tier : null;
  if (!tier) return 'skipped';
  const method = await paymentMethodOf(row.user_id);
  const attempt = Math.floor((now.getTime() - periodEnd.getTime()) / DAY_MS);
  let notification: SubscriptionNotification | null;
  try {
    notification = await provider.renewSubscription({
      subscriptionId: providerId,
      tier,
      amountCents: monthlyCents(tier),
      currency: 'usd',
      description: `${tierById(tier).name} membership - monthly renewal`,
      periodStart: periodEnd,
      paymentMethodId: method?.id ?? null,
      paymentMethodLabel: method?.label ?? null,
      idempotencyKey: `renewal:${row.id}:${periodEnd.getTime()}:${attempt}`,
      now,
    });
  } catch (error) {
    // The provider was not reached or refused the request: try again next run, not tomorrow.
    await service
      .from('subscriptions')
      .update({ last_renewal_attempt_at: lastAttempt })
      .eq('id', row.id)
      .eq('last_renewal_attempt_at', now.toISOString());
    throw error;
  }
  if (!notification) return 'skipped'; // the provider renews by itself and tells us by webhook
  const applied = await applySubscriptionNotification(service, notification);
  if (applied !== 'applied') return 'skipped';
  return notification.outcome;
}

/**
 * Runs the renewal job now and every `intervalMs` in this process (`scheduleJob`): a run never
 * overlaps the previous one, and its errors are logged, never thrown.
 */
export function scheduleRenewals(options: Omit<RenewalOptions, 'now'> & { intervalMs: number }): JobSchedule {
  const { intervalMs, ...job } = options;
  return scheduleJob(
    'renewal',
    intervalMs,
    () => runRenewals(job),
    (report) => {
      const moved = report.renewed + report.pastDue + report.canceled + report.errors;
      if (moved > 0) {
        console.log(
          `Renewals: ${report.renewed} renewed, ${report.pastDue} past due, ${report.canceled} ended, ${report.errors} failed.`,
        );
      }
    },
  );
}
