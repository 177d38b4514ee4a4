/** Small helpers shared by the Auth contract tests. */
import { createHmac, randomUUID } from 'node:crypto';
import { readOutbox, type OutboxEmail } from '@agentmarket/supabase-embedded';
import type { ContractTarget } from './contract-target';

export const uniqueEmail = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;

/** Decodes a JWT's payload without verifying it. */
export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** A raw request to the Auth service with the anon key and the API version header supabase-js sends. */
export function authFetch(
  target: ContractTarget,
  path: string,
  init: RequestInit & { bearer?: string } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set('apikey', target.anonKey);
  headers.set('x-supabase-api-version', '2024-01-01');
  if (init.bearer) headers.set('authorization', `Bearer ${init.bearer}`);
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return fetch(`${target.url}/auth/v1${path}`, { ...init, headers, redirect: 'manual' });
}

/** Signs arbitrary header + claims with HS256 and `secret` (or leaves it unsigned for `alg: none`). */
export function forgeJwt(header: Record<string, unknown>, claims: Record<string, unknown>, secret?: string): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode(header)}.${encode(claims)}`;
  if (!secret) return `${unsigned}.`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** The newest email the embedded Auth sent to `to` (its outbox). */
export async function lastEmail(target: ContractTarget, to: string): Promise<OutboxEmail> {
  const [email] = await readOutbox(target.backend!.db, { to, limit: 1 });
  if (!email) throw new Error(`no email to ${to}`);
  return email;
}
