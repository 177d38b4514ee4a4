/**
 * Admission of requests' transactions to the database (ADR 032). PGlite runs one statement at a
 * time, so a request that runs to its deadline holds every other one behind it; a queue without
 * end would keep the site slow long after. The gate in front of the transactions `withClaims`
 * opens (every Data API and Storage request) therefore:
 *
 * - lets `capacity` of them into the database at once (1 on PGlite, the pool's size on a server),
 *   the others wait their turn in order;
 * - refuses one at once when `maxWaiting` already wait, and one that waited `maxWaitMs` without
 *   getting its turn ({@link DatabaseBusyError}: 503 with `Retry-After`);
 * - refuses a client's request when that client already has `perClient` queued or running
 *   ({@link ClientLimitError}: 429). A client is the access token's subject, else its address;
 *   the service role and the app's own server-side calls (in process) are not counted per client;
 * - drops a waiting request whose HTTP client went away ({@link RequestCancelledError}): it never
 *   runs. One already running is left to its deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AdmissionLimits {
  /** Request transactions that may wait for their turn at once; one more is refused (503). */
  maxWaiting: number;
  /** How long one may wait for its turn, in ms, before it is refused (503). */
  maxWaitMs: number;
  /** Request transactions one client may have queued or running at once; one more is refused (429). */
  perClient: number;
  /** From this many waiting, `/healthz` reports the database as degraded. */
  degradedWaiting: number;
}

/**
 * The defaults (ADR 032, the wait from ADR 053). A request normally waits milliseconds for its
 * turn. Under a burst (100 connections on two cores) a page's calls wait seconds: 3 s refused a
 * few agent pages with 503 while the server kept up, so the wait is PostgREST's own default for
 * a connection from its pool, 10 s. 256 waiting: since a transaction's steps no longer wait for
 * the main thread (ADR 077) a slow request's transaction takes about 10 ms, so 256 drain in about
 * 3 s, and the 257th is refused at once rather than after the wait (128 refused most of fifty
 * parallel API uploads, each a few calls at once, that 256 served). 16 per client: a client
 * of the Data API itself (a script, another app) rarely has more than a few requests open at
 * once, and 16 of them at the anonymous deadline already hold the database for 48 s.
 */
export const DEFAULT_ADMISSION_LIMITS: AdmissionLimits = {
  maxWaiting: 256,
  maxWaitMs: 10_000,
  perClient: 16,
  degradedWaiting: 32,
};

/** What the gateway knows of the request being served: who sent it, and whether they are still there. */
export interface RequestScope {
  /** The client's address, as the HTTP layer gave it. */
  address?: string;
  /**
   * The app's own server-side call (the in-process `fetch`): fixed queries of its pages, for a
   * visitor or for none, never counted per client. Only the backend's HTTP entry leaves it unset.
   */
  fromApp?: boolean;
  /** Aborted when the HTTP client went away before the answer. */
  signal?: AbortSignal;
}

/** The request a service is serving (set by the gateway around the service's handler). */
export const requestScope = new AsyncLocalStorage<RequestScope>();

/** The database has too much waiting, or the request waited too long: 503, try again shortly. */
export class DatabaseBusyError extends Error {
  constructor(
    message: string,
    /** Seconds a client should wait before trying again (`Retry-After`). */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The client already has as many requests in the database as it may: 429. */
export class ClientLimitError extends Error {
  readonly retryAfterSeconds = 1;
  constructor(readonly limit: number) {
    super(`Too many requests of this client in the database at once (at most ${limit}).`);
  }
}

/** The HTTP client went away while the request waited: it did not run. */
export class RequestCancelledError extends Error {
  constructor() {
    super('The client went away before the request had its turn; it did not run.');
  }
}

/**
 * Who a request is counted as, or null for requests not limited per client: the token's subject
 * (a signed-in or anonymous user), else the address (a visitor without a session). Not counted:
 * the service role (the app's own key; whoever holds it holds the database) and the app's own
 * server-side calls, made in process (the queries its pages make, each page a bounded few).
 */
export function clientKeyOf(claims: { role: string; sub?: unknown }, scope: RequestScope | undefined): string | null {
  if (claims.role === 'service_role' || !scope || scope.fromApp) return null;
  if (typeof claims.sub === 'string' && claims.sub !== '') return `user:${claims.sub}`;
  return scope.address ? `address:${scope.address}` : null;
}

interface Waiter {
  since: number;
  admit(): void;
}

export class RequestGate {
  limits: AdmissionLimits;
  private running = 0;
  private readonly queue: Waiter[] = [];
  private readonly perClient = new Map<string, number>();
  /** Requests refused or dropped so far, by why (tests and the ADR's measurements read them). */
  readonly refused = { busy: 0, waited: 0, client: 0, cancelled: 0 };

  constructor(
    /** Request transactions the database runs at once. */
    readonly capacity: number,
    limits: Partial<AdmissionLimits> = {},
  ) {
    this.limits = { ...DEFAULT_ADMISSION_LIMITS, ...limits };
  }

  /** Request transactions waiting for their turn now. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Why the database is degraded (many waiting), or null. */
  degraded(): string | null {
    const waiting = this.queue.length;
    if (waiting === 0 || waiting < this.limits.degradedWaiting) return null;
    const oldest = Date.now() - this.queue[0]!.since;
    return `${waiting} requests are waiting for the database (the oldest for ${oldest} ms)`;
  }

  /** Runs `work` once it has its turn, or throws why it may not. */
  async run<T>(client: string | null, signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    if (signal?.aborted) {
      this.refused.cancelled++;
      throw new RequestCancelledError();
    }
    if (client !== null) {
      const count = this.perClient.get(client) ?? 0;
      if (count >= this.limits.perClient) {
        this.refused.client++;
        throw new ClientLimitError(this.limits.perClient);
      }
      this.perClient.set(client, count + 1);
    }
    try {
      await this.turn(signal);
      try {
        return await work();
      } finally {
        this.running--;
        this.next();
      }
    } finally {
      if (client !== null) {
        const count = (this.perClient.get(client) ?? 1) - 1;
        if (count === 0) this.perClient.delete(client);
        else this.perClient.set(client, count);
      }
    }
  }

  private turn(signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.capacity && this.queue.length === 0) {
      this.running++;
      return Promise.resolve();
    }
    if (this.queue.length >= this.limits.maxWaiting) {
      this.refused.busy++;
      return Promise.reject(
        new DatabaseBusyError(
          `The database is busy: ${this.queue.length} requests are already waiting.`,
          this.retryAfterSeconds(),
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        reject(error);
      };
      const cancel = () => {
        this.refused.cancelled++;
        leave(new RequestCancelledError());
      };
      const timer = setTimeout(() => {
        this.refused.waited++;
        leave(
          new DatabaseBusyError(
            `The database is busy: the request waited ${this.limits.maxWaitMs} ms without getting its turn.`,
            this.retryAfterSeconds(),
          ),
        );
      }, this.limits.maxWaitMs);
      const waiter: Waiter = {
        since: Date.now(),
        admit: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', cancel);
          resolve();
        },
      };
      signal?.addEventListener('abort', cancel, { once: true });
      this.queue.push(waiter);
    });
  }

  /** A slot is free: the longest-waiting request takes it. */
  private next() {
    if (this.running >= this.capacity) return;
    const waiter = this.queue.shift();
    if (!waiter) return;
    this.running++;
    waiter.admit();
  }

  private retryAfterSeconds() {
    return Math.max(1, Math.ceil(this.limits.maxWaitMs / 1000));
  }
}
