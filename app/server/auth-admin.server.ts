/**
 * Trusted reads of the Auth service for the app's own pages: whether Google sign-in is offered,
 * and (admins only, service key) the embedded backend's email outbox.
 */
import type { SupabaseConnection } from '~/context';
import { DEMO_MAIL_NOTE } from '~/lib/auth-errors';
import { isDemoMode } from '~/server/env.server';
import { backendKey } from '~/server/supabase.server';

const SETTINGS_TTL_MS = 60_000;
const settingsCache = new Map<string, { at: number; google: boolean }>();

/**
 * `external.google` of `GET /auth/v1/settings` (a real Google client, or the development
 * stand-in), read once a minute per backend. If the read fails the button stays (true): a
 * failed sign-in then says why, instead of a working sign-in disappearing.
 */
export async function googleSignInAvailable(connection: SupabaseConnection): Promise<boolean> {
  const cached = settingsCache.get(backendKey(connection));
  if (cached && Date.now() - cached.at < SETTINGS_TTL_MS) return cached.google;
  try {
    const response = await (connection.fetch ?? fetch)(`${connection.url}/auth/v1/settings`, {
      headers: { apikey: connection.anonKey },
    });
    if (!response.ok) return true;
    const settings = (await response.json()) as { external?: { google?: unknown } };
    const google = settings.external?.google === true;
    settingsCache.set(backendKey(connection), { at: Date.now(), google });
    return google;
  } catch {
    return true;
  }
}

export interface OutboxEntry {
  id: number;
  to: string;
  subject: string;
  type: string;
  link: string;
  otp: string;
  createdAt: string;
}

export type EmailDelivery =
  /** Hosted Supabase sends the emails; nothing is kept here. */
  | { kind: 'hosted' }
  | {
      kind: 'embedded';
      /** `smtp`: sent by the configured mail server; `log`: only written to the server log. */
      delivery: 'smtp' | 'log';
      devTools: boolean;
      google: 'oidc' | 'stand-in' | 'off';
      emails: OutboxEntry[];
    };

/**
 * The embedded backend's outbox through its service-role-only admin endpoint. Call only after a
 * guard: the result holds live sign-in links and codes.
 */
export async function readEmailDelivery(connection: SupabaseConnection, limit = 25): Promise<EmailDelivery> {
  // Only the embedded backend answers in process; hosted Supabase has no such endpoint.
  if (!connection.fetch || !connection.serviceRoleKey) return { kind: 'hosted' };
  const response = await connection.fetch(`${connection.url}/auth/v1/admin/outbox?limit=${limit}`, {
    headers: { apikey: connection.serviceRoleKey, authorization: `Bearer ${connection.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`Reading the outbox failed with ${response.status}`);
  const body = (await response.json()) as {
    delivery: 'smtp' | 'log';
    dev_tools: boolean;
    google: 'oidc' | 'stand-in' | 'off';
    emails: OutboxEntry[];
  };
  return {
    kind: 'embedded',
    delivery: body.delivery,
    devTools: body.dev_tools,
    google: body.google,
    emails: body.emails.map(({ id, to, subject, type, link, otp, createdAt }) => ({
      id,
      to,
      subject,
      type,
      link,
      otp,
      createdAt,
    })),
  };
}

/** How each backend delivers its emails: fixed when it starts, so read once. */
const deliveryCache = new Map<string, Promise<'hosted' | 'smtp' | 'log'>>();

async function readDeliveryKind(connection: SupabaseConnection): Promise<'hosted' | 'smtp' | 'log'> {
  const delivery = await readEmailDelivery(connection, 1);
  return delivery.kind === 'hosted' ? delivery.kind : delivery.delivery;
}

/**
 * DEMO_MAIL_NOTE when it is true: in demo mode, on the embedded backend writing its emails to the
 * server log (no SMTP), where System Settings lists them for the admin. Otherwise (not the demo, an
 * SMTP server, hosted Supabase, the outbox unreadable) nothing: the emails went where they say.
 */
export async function demoMailNote(
  connection: SupabaseConnection,
  demo: boolean = isDemoMode,
): Promise<string | undefined> {
  if (!demo) return undefined;
  const key = backendKey(connection);
  let kind = deliveryCache.get(key);
  if (!kind) {
    kind = readDeliveryKind(connection);
    deliveryCache.set(key, kind);
    kind.catch(() => deliveryCache.delete(key));
  }
  return (await kind.catch(() => null)) === 'log' ? DEMO_MAIL_NOTE : undefined;
}
