/**
 * The overview's Recent Activity: the viewer's latest real events, read with the request's
 * client after the dashboard guard.
 */
import { hasPermission } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface ActivityEvent {
  id: string;
  kind: 'purchase' | 'review' | 'sale' | 'signup';
  title: string;
  detail: string;
  at: string;
}

export const RECENT_ACTIVITY_LIMIT = 6;

/** The viewer's latest real events: purchases, reviews, sales (sellers) and sign-ups (admins). */
export async function getRecentActivity(client: AppSupabaseClient, viewer: Viewer): Promise<ActivityEvent[]> {
  const limit = RECENT_ACTIVITY_LIMIT;
  const history = 'id, agent_name, amount, status, created_at';
  const [purchases, reviews, sales, signups] = await Promise.all([
    client
      .from('user_purchase_history')
      .select(history)
      .eq('buyer_id', viewer.id)
      .order('created_at', { ascending: false })
      .limit(limit),
    client
      .from('reviews')
      .select('id, rating, created_at, agents(name)')
      .eq('buyer_id', viewer.id)
      .order('created_at', { ascending: false })
      .limit(limit),
    hasPermission(viewer.role, 'view_sales_analytics')
      ? client
          .from('user_purchase_history')
          .select(history)
          .eq('seller_id', viewer.id)
          .eq('status', 'completed')
          .neq('buyer_id', viewer.id)
          .order('created_at', { ascending: false })
          .limit(limit)
      : { data: [], error: null },
    hasPermission(viewer.role, 'manage_users')
      ? client.from('users').select('id, username, created_at').order('created_at', { ascending: false }).limit(limit)
      : { data: [], error: null },
  ]);
  // The view's columns are nullable in the generated types (Postgres records no NOT NULL for a
  // view); the purchases behind them are not, so the fallbacks never show.
  const money = (amount: number | null) => `$${(amount ?? 0).toFixed(2)}`;
  const events: ActivityEvent[] = [
    ...unwrap(purchases, 'recent purchases').map((row) => ({
      id: `purchase-${row.id}`,
      kind: 'purchase' as const,
      title: `Purchased ${row.agent_name ?? 'an agent'}`,
      detail: `${money(row.amount)} · ${row.status}`,
      at: row.created_at ?? '',
    })),
    ...unwrap(reviews, 'recent reviews').map((row) => ({
      id: `review-${row.id}`,
      kind: 'review' as const,
      title: `Reviewed ${row.agents?.name ?? 'an agent'}`,
      detail: `${row.rating} out of 5 stars`,
      at: row.created_at,
    })),
    ...unwrap(sales, 'recent sales').map((row) => ({
      id: `sale-${row.id}`,
      kind: 'sale' as const,
      title: `Sold ${row.agent_name ?? 'an agent'}`,
      detail: money(row.amount),
      at: row.created_at ?? '',
    })),
    ...unwrap(signups, 'recent sign-ups').map((row) => ({
      id: `signup-${row.id}`,
      kind: 'signup' as const,
      title: `${row.username} joined`,
      detail: 'New account',
      at: row.created_at,
    })),
  ];
  return events.sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit);
}
