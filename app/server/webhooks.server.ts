/**
 * Webhook deliveries (ADR 076). Events wait in `webhook_deliveries` (queued by the database's
 * triggers); the job runner claims the `webhooks` lease, then due deliveries
 * (`claim_webhook_deliveries`), sends each signed per the Standard Webhooks specification
 * (`standardwebhooks`: webhook-id, webhook-timestamp, webhook-signature) and records the attempt
 * (`record_webhook_attempt`: retried with exponential back-off for a day).
 *
 * Never to a private address: the host is resolved and every address checked when the connection
 * is made (so a name that resolves differently later is checked again), on every attempt; a
 * redirect is not followed (it counts as a failure). Each attempt times out after a few seconds.
 * WEBHOOK_ALLOW_PRIVATE_ADDRESSES (development and tests only; refused in production) lifts the
 * address check, for a receiver on this machine.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { unwrap } from '~/server/http-errors.server';
import { claimLease, extendLease, releaseLease, scheduleJob, type JobSchedule } from '~/server/jobs.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export const WEBHOOK_LEASE = 'webhooks';
const LEASE_MS = 2 * 60 * 1000;
const BATCH = 20;
const TIMEOUT_MS = 5000;
const MAX_ANSWER_BYTES = 1024;

export const PRIVATE_ADDRESS_REFUSAL = 'refused: the address is private or local';

/** An IPv6 address as its eight 16-bit groups (any notation, a dotted IPv4 tail included). */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[2]!.split('.').map(Number);
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (side: string) => (side ? side.split(':').map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

function isPrivateIPv4(address: string): boolean {
  const [a = 0, b = 0] = address.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224 // multicast, reserved, broadcast
  );
}

/**
 * Whether an IP address is one a webhook may not reach: loopback, private, link-local, CGNAT,
 * multicast, and in IPv6 also every form that carries an IPv4 address (mapped, compatible, 6to4,
 * NAT64, Teredo), whatever its notation. Anything unparsable counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return isPrivateIPv4(address);
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  if (!groups) return true;
  const [g0 = 0, g1 = 0, , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeroTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return isPrivateIPv4(v4(g6, g7)); // ::ffff:a.b.c.d
  if (zeroTo(6)) return true; // ::, ::1, ::a.b.c.d
  if (g0 === 0x2002) return isPrivateIPv4(v4(g1, groups[2] ?? 0)); // 6to4
  return (
    (g0 === 0x64 && g1 === 0xff9b) || // NAT64
    (g0 === 0x2001 && (g1 === 0 || g1 === 0xdb8)) || // Teredo, documentation
    (g0 & 0xfe00) === 0xfc00 || // unique local
    (g0 & 0xffc0) === 0xfe80 || // link-local
    (g0 & 0xffc0) === 0xfec0 || // site-local
    (g0 & 0xff00) === 0xff00 // multicast
  );
}

/** A DNS lookup that fails for any private address among the host's (checked at connection time). */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      if (!allowPrivate && addresses.some((entry) => isPrivateAddress(entry.address))) {
        return callback(Object.assign(new Error(PRIVATE_ADDRESS_REFUSAL), { code: 'EPRIVATE' }), '', 4);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * What the attempts list says of a failure: a category, not the system's message (which would
 * tell a seller more about the network between us and their host than they need).
 */
function failureCategory(error: Error & { code?: string }): string {
  if (error.code === 'EPRIVATE') return PRIVATE_ADDRESS_REFUSAL;
  if (error.message.startsWith('no answer within')) return error.message;
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the host name was not found';
  if (error.code === 'ECONNREFUSED') return 'the connection was refused';
  if (error.code === 'ECONNRESET') return 'the connection was reset';
  if (/cert|ssl|tls/i.test(`${error.code ?? ''} ${error.message}`)) return 'the TLS connection failed (certificate?)';
  return 'the connection failed';
}

export interface SendOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

/** One POST of a signed payload; never throws. */
export function sendWebhook(
  target: { url: string; secret: string; id: string; body: string },
  { allowPrivate = false, timeoutMs = TIMEOUT_MS }: { allowPrivate?: boolean; timeoutMs?: number } = {},
): Promise<SendOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): SendOutcome => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return resolve(done(null, 'refused: not a URL'));
    }
    if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
      return resolve(done(null, 'refused: only https URLs are delivered to'));
    }
    // A literal IP address skips the DNS lookup: checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !allowPrivate && isPrivateAddress(literal))
      return resolve(done(null, PRIVATE_ADDRESS_REFUSAL));
    const timestamp = new Date();
    const signature = new Webhook(target.secret).sign(target.id, timestamp, target.body);
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(
      url,
      {
        method: 'POST',
        lookup: guardedLookup(allowPrivate),
        timeout: timeoutMs,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'AgentMarket-Webhooks/1',
          'webhook-id': target.id,
          'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
          'webhook-signature': signature,
        },
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        const finish = () => {
          const code = response.statusCode ?? null;
          const redirect = code !== null && code >= 300 && code < 400;
          resolve(done(code, redirect ? 'redirects are not followed' : null));
        };
        response.on('end', finish);
        response.on('close', finish);
        response.on('error', finish);
      },
    );
    // The address actually connected to, whatever the URL or DNS said.
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        if (!allowPrivate && socket.remoteAddress && isPrivateAddress(socket.remoteAddress)) {
          request.destroy(Object.assign(new Error(PRIVATE_ADDRESS_REFUSAL), { code: 'EPRIVATE' }));
        }
      });
    });
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error) => {
      clearTimeout(deadline);
      resolve(done(null, failureCategory(error)));
    });
    request.on('close', () => clearTimeout(deadline));
    request.end(target.body);
  });
}

export interface WebhookReport {
  leased: boolean;
  delivered: number;
  retrying: number;
  failed: number;
}

export interface WebhookRunOptions {
  service: AppSupabaseClient;
  allowPrivate?: boolean;
  timeoutMs?: number;
}

/** Sends every due delivery (batches of 20 in parallel) under the `webhooks` lease. */
export async function runWebhookDeliveries({
  service,
  allowPrivate = false,
  timeoutMs,
}: WebhookRunOptions): Promise<WebhookReport> {
  const report: WebhookReport = { leased: false, delivered: 0, retrying: 0, failed: 0 };
  const lease = await claimLease(service, WEBHOOK_LEASE, LEASE_MS);
  if (!lease) return report;
  report.leased = true;
  try {
    const pruned = await service.rpc('prune_webhook_deliveries');
    if (pruned.error) console.error('Old webhook deliveries were not pruned:', pruned.error.message);
    for (;;) {
      const due = unwrap(await service.rpc('claim_webhook_deliveries', { max_count: BATCH }), 'due webhooks');
      await Promise.all(
        due.map(async (delivery) => {
          const outcome = await sendWebhook(
            {
              url: delivery.url,
              secret: delivery.secret,
              id: `msg_${delivery.id}`,
              body: JSON.stringify(delivery.payload),
            },
            { allowPrivate, timeoutMs },
          );
          const recorded = unwrap(
            await service.rpc('record_webhook_attempt', {
              delivery: delivery.id,
              code: outcome.statusCode as number,
              took_ms: outcome.durationMs,
              failure: outcome.error as string,
            }),
            'webhook attempt',
          );
          if (recorded === 'succeeded') report.delivered += 1;
          else if (recorded === 'failed') report.failed += 1;
          else if (recorded === 'pending') report.retrying += 1;
        }),
      );
      if (due.length < BATCH || !(await extendLease(service, lease))) break;
    }
  } finally {
    await releaseLease(service, lease);
  }
  return report;
}

/** The job in this process, every `intervalMs` (WEBHOOK_INTERVAL_MS). */
export function scheduleWebhooks(options: WebhookRunOptions & { intervalMs: number }): JobSchedule {
  const { intervalMs, ...job } = options;
  return scheduleJob(
    'webhook',
    intervalMs,
    () => runWebhookDeliveries(job),
    (report) => {
      if (report.delivered + report.retrying + report.failed > 0) {
        console.log(`Webhooks: ${report.delivered} delivered, ${report.retrying} to retry, ${report.failed} failed.`);
      }
    },
  );
}
