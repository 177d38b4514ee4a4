/**
 * The server's job runner (ADR 018, used by the renewals and the webhook deliveries): a job runs
 * in a process only after claiming its `job_leases` row (one UPDATE … WHERE expires_at < now
 * RETURNING, so of several servers one wins), extends it while it works, and releases it at the
 * end; a server that dies mid-run loses it when it expires. `scheduleJob` runs a job now and every
 * interval in this process, never two runs at once, its errors logged.
 */
import { hostname } from 'node:os';
import { unwrap } from '~/server/http-errors.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

const RELEASED = new Date(0).toISOString();

export interface Lease {
  name: string;
  holder: string;
  ms: number;
}

/** The lease, or null when another server holds it. */
export async function claimLease(service: AppSupabaseClient, name: string, ms: number): Promise<Lease | null> {
  const holder = `${hostname()}:${process.pid}:${crypto.randomUUID()}`;
  const wallNow = Date.now();
  const claimed = unwrap(
    await service
      .from('job_leases')
      .update({ holder, expires_at: new Date(wallNow + ms).toISOString() })
      .eq('name', name)
      .lt('expires_at', new Date(wallNow).toISOString())
      .select('name'),
    `${name} lease`,
  );
  return claimed.length > 0 ? { name, holder, ms } : null;
}

/** Whether the lease is still this run's (extended), or was lost (expired, taken). */
export async function extendLease(service: AppSupabaseClient, lease: Lease): Promise<boolean> {
  const extended = unwrap(
    await service
      .from('job_leases')
      .update({ expires_at: new Date(Date.now() + lease.ms).toISOString() })
      .eq('name', lease.name)
      .eq('holder', lease.holder)
      .select('name'),
    `${lease.name} lease`,
  );
  return extended.length > 0;
}

export async function releaseLease(service: AppSupabaseClient, lease: Lease): Promise<void> {
  const released = await service
    .from('job_leases')
    .update({ holder: null, expires_at: RELEASED })
    .eq('name', lease.name)
    .eq('holder', lease.holder);
  // Not released: it expires by itself.
  if (released.error) console.error(`The ${lease.name} lease was not released:`, released.error.message);
}

export interface JobSchedule {
  /** Stops the timer and waits for a run in progress (its lease released). */
  stop(): Promise<void>;
}

/**
 * Runs `run` now and every `intervalMs` in this process (the timer never keeps the process alive);
 * a run never overlaps the previous one; `report` logs what a run did, errors are logged.
 */
export function scheduleJob<Report>(
  name: string,
  intervalMs: number,
  run: () => Promise<Report>,
  report: (result: Report) => void,
): JobSchedule {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = run()
      .then(report, (error: unknown) => console.error(`The ${name} job failed:`, error))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(tick, 0);
  const timer = setInterval(tick, intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
