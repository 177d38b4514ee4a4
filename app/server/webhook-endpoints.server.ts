/**
 * The Developers page's webhooks (ADR 076), through the seller's own client: row-level security
 * gives each seller their own endpoints, deliveries and attempts; the secret is written once and
 * never read back through the Data API (the app shows it when the endpoint is made).
 */
import { randomBytes } from 'node:crypto';
import { formatDate, formatDateTime } from '~/lib/dashboard-format';
import type { WebhookEvent } from '~/schemas/webhooks';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface WebhookEndpointRow {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdOn: string;
  /** Since when its deliveries fail (the last attempt failed), or null. */
  failingSince: string | null;
}

export async function listWebhookEndpoints(
  client: AppSupabaseClient,
  sellerId: string,
  timeZone: string,
): Promise<WebhookEndpointRow[]> {
  const rows = unwrap(
    await client
      .from('webhook_endpoints')
      .select('id, url, events, created_at, failing_since')
      .eq('seller_id', sellerId)
      .order('created_at', { ascending: false }),
    'webhook endpoints',
  );
  return rows.map((row) => ({
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    createdOn: formatDate(row.created_at, timeZone),
    failingSince: row.failing_since ? formatDateTime(row.failing_since, timeZone) : null,
  }));
}

/** A new endpoint and its signing secret (shown once), or 'too-many' at the database's cap. */
export async function addWebhookEndpoint(
  client: AppSupabaseClient,
  sellerId: string,
  { url, events }: { url: string; events: WebhookEvent[] },
): Promise<{ secret: string } | 'too-many'> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const { error } = await client.from('webhook_endpoints').insert({ seller_id: sellerId, url, events, secret });
  if (error?.code === 'PT409') return 'too-many';
  unwrap({ data: null, error }, 'webhook endpoint insert');
  return { secret };
}

export async function deleteWebhookEndpoint(client: AppSupabaseClient, endpointId: string): Promise<boolean> {
  const found = unwrap(await client.from('webhook_endpoints').select('id').eq('id', endpointId), 'webhook endpoint');
  if (found.length === 0) return false;
  unwrap(await client.from('webhook_endpoints').delete().eq('id', endpointId), 'webhook endpoint delete');
  return true;
}

export interface DeliveryRow {
  id: string;
  eventType: string;
  createdAt: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; statusCode: number | null; durationMs: number; error: string | null }[];
}

/** The endpoint (the seller's own, or null) and its last 50 deliveries with their attempts. */
export async function readWebhookDeliveries(
  client: AppSupabaseClient,
  endpointId: string,
  timeZone: string,
): Promise<{ endpoint: WebhookEndpointRow; deliveries: DeliveryRow[] } | null> {
  const [endpoint, deliveries] = await Promise.all([
    client
      .from('webhook_endpoints')
      .select('id, url, events, created_at, failing_since')
      .eq('id', endpointId)
      .maybeSingle(),
    client
      .from('webhook_deliveries')
      .select('id, event_type, created_at, status, webhook_attempts(attempted_at, status_code, duration_ms, error)')
      .eq('endpoint_id', endpointId)
      .order('created_at', { ascending: false })
      .order('attempted_at', { referencedTable: 'webhook_attempts', ascending: false })
      .limit(50),
  ]);
  const row = unwrap(endpoint, 'webhook endpoint');
  if (!row) return null;
  return {
    endpoint: {
      id: row.id,
      url: row.url,
      events: row.events as WebhookEvent[],
      createdOn: formatDate(row.created_at, timeZone),
      failingSince: row.failing_since ? formatDateTime(row.failing_since, timeZone) : null,
    },
    deliveries: unwrap(deliveries, 'webhook deliveries').map((delivery) => ({
      id: delivery.id,
      eventType: delivery.event_type,
      createdAt: formatDateTime(delivery.created_at, timeZone),
      status: delivery.status as DeliveryRow['status'],
      attempts: delivery.webhook_attempts.map((attempt) => ({
        at: formatDateTime(attempt.attempted_at, timeZone),
        statusCode: attempt.status_code,
        durationMs: attempt.duration_ms,
        error: attempt.error,
      })),
    })),
  };
}

/** Sends one delivery again (the seller's own, at most once a minute). */
export async function redeliverWebhook(
  client: AppSupabaseClient,
  deliveryId: string,
): Promise<'done' | 'not-found' | 'too-soon'> {
  const { error } = await client.rpc('redeliver_webhook', { delivery: deliveryId });
  if (error?.code === 'PT404') return 'not-found';
  if (error?.code === 'PT429') return 'too-soon';
  unwrap({ data: null, error }, 'webhook redelivery');
  return 'done';
}
