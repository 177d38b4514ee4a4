/**
 * The overview's Recent Activity: the viewer's latest real events, read with the request's
 * client after the dashboard guard.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { hasPermission } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { unwrap } from '~/server/http-errors.server';

export interface ActivityEvent {
  id: string;
  kind: 'purchase' | 'review' | 'sale' | 'signup';
  title: string;
  detail: string;
  at: string;
}

export const RECENT_ACTIVITY_LIMIT = 6;

/** The viewer's latest real events: purchases, reviews, sales (sellers) and sign-ups (admins). */
export async function getRecentActivity(client: SupabaseClient, viewer: Viewer): Promise<ActivityEvent[]> {
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
  type HistoryRow = { id: string; agent_name: string; amount: number; status: string; created_at: string };
  const money = (amount: number) => `$${amount.toFixed(2)}`;
  const events: ActivityEvent[] = [
    ...(unwrap(purchases, 'recent purchases') as HistoryRow[]).map((row) => ({
      id: `purchase-${row.id}`,
      kind: 'purchase' as const,
      title: `Purchased ${row.agent_name}`,
      detail: `${money(row.amount)} · ${row.status}`,
      at: row.created_at,
    })),
    ...(
      unwrap(reviews, 'recent reviews') as unknown as {
        id: string;
        rating: number;
        created_at: string;
        agents: { name: string } | { name: string }[] | null;
      }[]
    ).map((row) => ({
      id: `review-${row.id}`,
      kind: 'review' as const,
      title: `Reviewed ${(Array.isArray(row.agents) ? row.agents[0] : row.agents)?.name ?? 'an agent'}`,
      detail: `${row.rating} out of 5 stars`,
      at: row.created_at,
    })),
    ...(unwrap(sales, 'recent sales') as HistoryRow[]).map((row) => ({
      id: `sale-${row.id}`,
      kind: 'sale' as const,
      title: `Sold ${row.agent_name}`,
      detail: money(row.amount),
      at: row.created_at,
    })),
    ...(unwrap(signups, 'recent sign-ups') as { id: string; username: string; created_at: string }[]).map((row) => ({
      id: `signup-${row.id}`,
      kind: 'signup' as const,
      title: `${row.username} joined`,
      detail: 'New account',
      at: row.created_at,
    })),
  ];
  return events.sort((a, b) => b.at.localeCompare(a.at)).slice(0, limit);
}
