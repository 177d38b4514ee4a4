/**
 * Analytics: agent-page views, a seller's figures (/dashboard/analytics) and the
 * platform's (/dashboard/platform-analytics and the overview's Platform Insights). Every figure
 * comes from the database functions of migration 20261127000100_analytics.sql, in UTC days.
 */
import { createCookie } from 'react-router';
import type { SupabaseConnection } from '~/context';
import { ANALYTICS_DAYS, conversionRate, sumOf } from '~/lib/analytics';
import { percentChange } from '~/lib/dashboard-format';
import { isSecureRequest } from '~/server/cookies.server';
import { unwrap } from '~/server/http-errors.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { createTtlCache } from '~/server/ttl-cache.server';

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

/** An anonymous visitor's random id (no name, no address): one view per visitor and day. */
const visitorCookie = createCookie('am_visitor', {
  path: '/',
  httpOnly: true,
  sameSite: 'lax',
  maxAge: 60 * 60 * 24 * 365,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The visitor's id: the signed-in user's, else the cookie's, else a new one to set. */
export async function visitorOf(
  request: Request,
  viewerId: string | null,
): Promise<{ visitorId: string; signedIn: boolean; setCookie: string | null }> {
  if (viewerId) return { visitorId: viewerId, signedIn: true, setCookie: null };
  const stored: unknown = await visitorCookie.parse(request.headers.get('cookie')).catch(() => null);
  if (typeof stored === 'string' && UUID.test(stored)) return { visitorId: stored, signedIn: false, setCookie: null };
  const visitorId = crypto.randomUUID();
  return {
    visitorId,
    signedIn: false,
    setCookie: await visitorCookie.serialize(visitorId, { secure: isSecureRequest(request) }),
  };
}

export interface AgentView {
  agentId: string;
  visitorId: string;
  signedIn: boolean;
}

/**
 * Records views (the database keeps one per visitor, agent and UTC day; never the seller's own,
 * only published agents); how many were new.
 */
export async function recordViews(service: AppSupabaseClient, views: readonly AgentView[]): Promise<number> {
  const { data, error } = await service.rpc('record_agent_views', {
    views: views.map((view) => ({ agent_id: view.agentId, visitor_id: view.visitorId, signed_in: view.signedIn })),
  });
  if (error) throw new Error(error.message);
  return data;
}

/** Views this process already counted today: a reload costs no write. */
const counted = createTtlCache<true>({ ttlMs: 60 * 60_000, maxEntries: 20_000 });

/**
 * Views wait here for a moment and are written together: under load one statement per batch
 * instead of one per visit (ADR 028). A crash loses at most the last moment's views.
 */
const VIEW_BATCH_DELAY_MS = 250;
const VIEW_BATCH_SIZE = 500;
const pendingViews = new Map<string, AgentView>();
let viewsConnection: SupabaseConnection | null = null;
let viewsTimer: ReturnType<typeof setTimeout> | null = null;
let viewsWriting: Promise<void> = Promise.resolve();

function queueView(connection: SupabaseConnection, key: string, view: AgentView) {
  viewsConnection = connection;
  pendingViews.set(key, view);
  if (pendingViews.size >= VIEW_BATCH_SIZE) void flushViews();
  else if (!viewsTimer) {
    viewsTimer = setTimeout(() => void flushViews(), VIEW_BATCH_DELAY_MS);
    viewsTimer.unref();
  }
}

/**
 * Writes the views waiting to be written (a failure is logged, never shown: the views are lost,
 * not the page). Resolves once they are in the database, so that a read after it sees them; the
 * server calls it before it closes the database.
 */
export function flushViews(): Promise<void> {
  if (viewsTimer) clearTimeout(viewsTimer);
  viewsTimer = null;
  const batch = [...pendingViews.values()];
  pendingViews.clear();
  const connection = viewsConnection;
  if (batch.length > 0 && connection) {
    viewsWriting = viewsWriting.then(() =>
      recordViews(createServiceSupabase(connection), batch).then(
        () => undefined,
        (error: unknown) => console.error('Agent views not recorded:', error instanceof Error ? error.message : error),
      ),
    );
  }
  return viewsWriting;
}

/**
 * The agent page's one call: counts the view of a published agent by anyone but its seller, in
 * the background (a failure is logged, never shown). Returns the headers that give a new
 * anonymous visitor their id.
 */
export async function countAgentView(
  { request, connection, viewerId }: { request: Request; connection: SupabaseConnection; viewerId: string | null },
  agent: { id: string; sellerId: string | null; status: string },
): Promise<{ headers: Record<string, string> } | undefined> {
  if (agent.status !== 'published' || agent.sellerId === viewerId) return undefined;
  try {
    const visitor = await visitorOf(request, viewerId);
    const key = `${new Date().toISOString().slice(0, 10)}:${agent.id}:${visitor.visitorId}`;
    const view = { agentId: agent.id, visitorId: visitor.visitorId, signedIn: visitor.signedIn };
    void counted.get(key, async () => {
      queueView(connection, key, view);
      return true;
    });
    return visitor.setCookie ? { headers: { 'Set-Cookie': visitor.setCookie } } : undefined;
  } catch (error) {
    console.error('Agent view not recorded:', error instanceof Error ? error.message : error);
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// A seller's figures
// ---------------------------------------------------------------------------------------------

export interface SellerDay {
  day: string;
  sales: number;
  revenue: number;
  views: number;
}

export interface AgentFigures {
  id: string;
  name: string;
  status: string;
  sales: number;
  revenue: number;
  views: number;
  conversion: number | null;
}

export interface SellerAnalytics {
  days: SellerDay[];
  totals: { sales: number; revenue: number; views: number; conversion: number | null };
  agents: AgentFigures[];
}

/** The signed-in seller's own figures over the last `days` UTC days (their client: RLS applies). */
export async function getSellerAnalytics(client: AppSupabaseClient, days = ANALYTICS_DAYS): Promise<SellerAnalytics> {
  const [daily, perAgent] = await Promise.all([
    client.rpc('seller_daily_figures', { days }),
    client.rpc('seller_agent_figures', { days }),
  ]);
  const rows = unwrap(daily, 'seller daily figures').map((row) => ({
    day: row.day,
    sales: Number(row.sales),
    revenue: Number(row.revenue),
    views: Number(row.views),
  }));
  const sales = sumOf(rows, (row) => row.sales);
  const views = sumOf(rows, (row) => row.views);
  return {
    days: rows,
    totals: {
      sales,
      revenue: sumOf(rows, (row) => row.revenue, true),
      views,
      conversion: conversionRate(sales, views),
    },
    agents: unwrap(perAgent, 'seller agent figures').map((row) => ({
      id: row.agent_id,
      name: row.name,
      status: row.status,
      sales: Number(row.sales),
      revenue: Number(row.revenue),
      views: Number(row.views),
      conversion: conversionRate(Number(row.sales), Number(row.views)),
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// The platform's figures
// ---------------------------------------------------------------------------------------------

export interface PlatformDay {
  day: string;
  newUsers: number;
  newSellers: number;
  newAgents: number;
  purchases: number;
  revenue: number;
  activeUsers: number;
}

/** Per UTC day, oldest first, today last. The database refuses anyone but an administrator. */
export async function getPlatformDays(client: AppSupabaseClient, days = ANALYTICS_DAYS): Promise<PlatformDay[]> {
  return unwrap(await client.rpc('platform_daily_figures', { days }), 'platform figures').map((row) => ({
    day: row.day,
    newUsers: Number(row.new_users),
    newSellers: Number(row.new_sellers),
    newAgents: Number(row.new_agents),
    purchases: Number(row.purchases),
    revenue: Number(row.revenue),
    activeUsers: Number(row.active_users),
  }));
}

/**
 * The distinct users active over the last `days` UTC days (today included), each counted once:
 * not the sum of the days' active users, which counts a person once per day they came back.
 */
export async function getPlatformActiveUsers(client: AppSupabaseClient, days = ANALYTICS_DAYS): Promise<number> {
  return Number(unwrap(await client.rpc('platform_active_users', { days }), 'platform active users'));
}

export interface PlatformInsights {
  dailyActiveUsers: number;
  revenueGrowthPercent: number | null;
  newAgents: number;
}

/**
 * The overview's Platform Insights from the platform's days (at least 2 × ANALYTICS_DAYS, today
 * last): active users today, revenue of the last 30 days against the 30 before, agents published
 * in the last 30 days. The same rows as /dashboard/platform-analytics, so the two agree.
 */
export function platformInsightsFrom(days: readonly PlatformDay[]): PlatformInsights {
  const recent = days.slice(-ANALYTICS_DAYS);
  const before = days.slice(-2 * ANALYTICS_DAYS, -ANALYTICS_DAYS);
  const revenue = (rows: readonly PlatformDay[]) => sumOf(rows, (row) => row.revenue, true);
  return {
    dailyActiveUsers: days.at(-1)?.activeUsers ?? 0,
    revenueGrowthPercent: percentChange(revenue(before), revenue(recent)),
    newAgents: sumOf(recent, (row) => row.newAgents),
  };
}

/** Platform Insights for the overview: one read of the platform's last 60 days. */
export async function getPlatformInsights(client: AppSupabaseClient): Promise<PlatformInsights> {
  return platformInsightsFrom(await getPlatformDays(client, 2 * ANALYTICS_DAYS));
}
