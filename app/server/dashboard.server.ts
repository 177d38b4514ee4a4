/**
 * The overview's figures, computed from real rows with the request's client (row-level
 * security decides what each account may read). Call only after a dashboard guard.
 */
import { monthKey } from '~/lib/dashboard-format';
import { totalOf } from '~/lib/membership';
import { unwrap, type QueryResult } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface StatCard {
  label: string;
  value: number | null;
  /** `percent`: a rate (0.25 = 25 %), `null` without views. */
  format: 'count' | 'money' | 'rating' | 'percent';
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A failed read is a 503 (`unwrap`), never a made-up number. */
function countOf(result: QueryResult<unknown> & { count?: number | null }, what: string): number {
  unwrap(result, what);
  return result.count ?? 0;
}

export async function getBuyerStats(client: AppSupabaseClient, viewerId: string, now: Date, timeZone: string) {
  const [purchasesResult, reviewsResult] = await Promise.all([
    client.from('purchases').select('agent_id, amount, created_at').eq('buyer_id', viewerId).eq('status', 'completed'),
    client.from('reviews').select('id', { count: 'exact', head: true }).eq('buyer_id', viewerId),
  ]);
  const purchases = unwrap(purchasesResult, 'buyer purchases');
  const thisMonth = monthKey(now, timeZone);
  return [
    { label: 'Agents Owned', value: new Set(purchases.map((p) => p.agent_id)).size, format: 'count' },
    { label: 'Total Spent', value: totalOf(purchases.map((p) => p.amount)), format: 'money' },
    { label: 'Reviews Written', value: countOf(reviewsResult, 'buyer reviews'), format: 'count' },
    {
      label: 'Purchases This Month',
      value: purchases.filter((p) => monthKey(new Date(p.created_at), timeZone) === thisMonth).length,
      format: 'count',
    },
  ] satisfies StatCard[];
}

export async function getSellerStats(client: AppSupabaseClient, viewerId: string) {
  const [agentsResult, salesResult] = await Promise.all([
    client.from('agents').select('id, status').eq('seller_id', viewerId),
    client.from('purchases').select('amount').eq('seller_id', viewerId).eq('status', 'completed'),
  ]);
  const agents = unwrap(agentsResult, 'seller agents');
  const sales = unwrap(salesResult, 'seller sales');
  const ratings =
    agents.length === 0
      ? []
      : unwrap(
          await client
            .from('reviews')
            .select('rating')
            .in(
              'agent_id',
              agents.map((agent) => agent.id),
            ),
          'seller ratings',
        );
  const average =
    ratings.length === 0
      ? null
      : Math.round((ratings.reduce((sum, review) => sum + review.rating, 0) / ratings.length) * 10) / 10;
  return [
    {
      label: 'Published Agents',
      value: agents.filter((agent) => agent.status === 'published').length,
      format: 'count',
    },
    { label: 'Total Sales', value: sales.length, format: 'count' },
    { label: 'Revenue', value: totalOf(sales.map((sale) => sale.amount)), format: 'money' },
    { label: 'Average Rating', value: average, format: 'rating' },
  ] satisfies StatCard[];
}

async function completedSales(client: AppSupabaseClient) {
  return unwrap(
    await client.from('purchases').select('amount, created_at').eq('status', 'completed'),
    'platform sales',
  );
}

const since = <T extends { created_at: string }>(rows: T[], from: Date): T[] =>
  rows.filter((row) => new Date(row.created_at).getTime() >= from.getTime());

export async function getAdminStats(client: AppSupabaseClient, now: Date) {
  const [usersResult, agentsResult, sales] = await Promise.all([
    client.from('users').select('id', { count: 'exact', head: true }),
    client.from('agents').select('id', { count: 'exact', head: true }).eq('status', 'published'),
    completedSales(client),
  ]);
  return [
    { label: 'Total Users', value: countOf(usersResult, 'users'), format: 'count' },
    { label: 'Published Agents', value: countOf(agentsResult, 'agents'), format: 'count' },
    { label: 'Platform Revenue', value: totalOf(sales.map((sale) => sale.amount)), format: 'money' },
    {
      label: 'Purchases This Week',
      value: since(sales, new Date(now.getTime() - 7 * DAY_MS)).length,
      format: 'count',
    },
  ] satisfies StatCard[];
}

/** The membership page's real figures: what the member paid and saved on each completed purchase. */
export async function getCompletedPurchases(
  client: AppSupabaseClient,
  viewerId: string,
): Promise<{ amount: number; discountAmount: number }[]> {
  const rows = unwrap(
    await client.from('purchases').select('amount, discount_amount').eq('buyer_id', viewerId).eq('status', 'completed'),
    'membership purchases',
  );
  return rows.map((row) => ({ amount: Number(row.amount), discountAmount: Number(row.discount_amount) }));
}
