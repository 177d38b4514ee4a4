/**
 * The overview's figures and Membership's, summed up by the database with the request's client
 * (row-level security decides what each account may read; each function counts the caller's own
 * rows): one row whatever the history's length (migration 20261129000300, ADR 026). Call only
 * after a dashboard guard.
 */
import { totalOf } from '~/lib/money';
import { unwrap, type QueryResult } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';
import { withTimeZoneFallback } from '~/server/time-zone.server';

export interface StatCard {
  label: string;
  value: number | null;
  /** `percent`: a rate (0.25 = 25 %), `null` without views; `average`: a mean, to one decimal. */
  format: 'count' | 'money' | 'rating' | 'percent' | 'average';
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A failed read is a 503 (`unwrap`), never a made-up number. */
function countOf(result: QueryResult<unknown> & { count?: number | null }, what: string): number {
  unwrap(result, what);
  return result.count ?? 0;
}

/** numeric(10, 2) summed by the database (exact), through cents like every total of the app. */
const money = (value: number | string) => totalOf([Number(value)]);

export interface BuyerFigures {
  /** Completed purchases of the viewer as the buyer. */
  completedCount: number;
  /** Distinct agents among them. */
  agentsOwned: number;
  totalSpent: number;
  /** The discounts those purchases recorded. */
  totalSaved: number;
  /** Completed purchases in the calendar month of `now` in `timeZone`. */
  completedThisMonth: number;
}

/** The viewer's completed purchases summed up (`public.buyer_figures`). */
export async function getBuyerFigures(client: AppSupabaseClient, now: Date, timeZone: string): Promise<BuyerFigures> {
  const row = unwrap(
    await withTimeZoneFallback(timeZone, (zone) =>
      client.rpc('buyer_figures', { time_zone: zone, at_time: now.toISOString() }, { get: true }).single(),
    ),
    'buyer figures',
  );
  return {
    completedCount: Number(row.completed_count),
    agentsOwned: Number(row.agents_owned),
    totalSpent: money(row.total_spent),
    totalSaved: money(row.total_saved),
    completedThisMonth: Number(row.completed_this_month),
  };
}

export async function getBuyerStats(client: AppSupabaseClient, viewerId: string, now: Date, timeZone: string) {
  const [figures, reviewsResult] = await Promise.all([
    getBuyerFigures(client, now, timeZone),
    client.from('reviews').select('id', { count: 'exact', head: true }).eq('buyer_id', viewerId),
  ]);
  return [
    { label: 'Agents Owned', value: figures.agentsOwned, format: 'count' },
    { label: 'Total Spent', value: figures.totalSpent, format: 'money' },
    { label: 'Reviews Written', value: countOf(reviewsResult, 'buyer reviews'), format: 'count' },
    { label: 'Purchases This Month', value: figures.completedThisMonth, format: 'count' },
  ] satisfies StatCard[];
}

export async function getSellerStats(client: AppSupabaseClient) {
  const row = unwrap(await client.rpc('seller_overview_figures', undefined, { get: true }).single(), 'seller figures');
  const reviews = Number(row.review_count);
  return [
    { label: 'Published Agents', value: Number(row.published_agents), format: 'count' },
    { label: 'Total Sales', value: Number(row.sales_count), format: 'count' },
    { label: 'Revenue', value: money(row.revenue), format: 'money' },
    {
      label: 'Average Rating',
      value: reviews === 0 ? null : Math.round((Number(row.rating_sum) / reviews) * 10) / 10,
      format: 'rating',
    },
  ] satisfies StatCard[];
}

export async function getAdminStats(client: AppSupabaseClient, now: Date) {
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const row = unwrap(
    await client.rpc('platform_overview_figures', { since: weekAgo.toISOString() }, { get: true }).single(),
    'platform figures',
  );
  return [
    { label: 'Total Users', value: Number(row.user_count), format: 'count' },
    { label: 'Published Agents', value: Number(row.published_agents), format: 'count' },
    { label: 'Platform Revenue', value: money(row.revenue), format: 'money' },
    { label: 'Purchases This Week', value: Number(row.purchases_since), format: 'count' },
  ] satisfies StatCard[];
}
