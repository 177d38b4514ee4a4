/**
 * Where the contract suite sends its requests: a hosted Supabase project when
 * SUPABASE_TEST_URL, SUPABASE_TEST_ANON_KEY and SUPABASE_TEST_SERVICE_ROLE_KEY are set, else
 * the embedded backend (in memory, seeded; on the `postgres` test project over a fresh database
 * of the PostgreSQL server instead of PGlite) behind a real HTTP server on a free loopback port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestListener } from '@remix-run/node-fetch-server';
import {
  createEmbeddedBackend,
  type AuthConfigOverrides,
  type EmbeddedBackend,
  type RateLimitClock,
} from '@agentmarket/supabase-embedded';
import { scratchDatabaseUrl } from './database-target';

export interface ContractTarget {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** The embedded backend when the target is local (outbox, direct SQL); undefined when hosted. */
  backend?: EmbeddedBackend;
  close(): Promise<void>;
}

export const isHostedTarget = Boolean(
  process.env.SUPABASE_TEST_URL && process.env.SUPABASE_TEST_ANON_KEY && process.env.SUPABASE_TEST_SERVICE_ROLE_KEY,
);

export interface ContractTargetOptions {
  seed?: boolean;
  /** Auth settings for the local backend (ignored by a hosted target). */
  auth?: AuthConfigOverrides;
  /**
   * The suite signs in far more often from 127.0.0.1 than one visitor would, so the local
   * backend's rate limits are raised unless a test asks for config.toml's own (or sets them in
   * `auth.rateLimits`).
   */
  realRateLimits?: boolean;
  /** The rate limiter's clock (a fake one lets a test pass delays without waiting). */
  clock?: RateLimitClock;
  /** The development pages under `/auth/v1/_local/*` (outbox, stand-in Google); default off as in production. */
  devTools?: boolean;
}

const HIGH_RATE_LIMITS = {
  emailSent: 100_000,
  anonymousUsers: 100_000,
  tokenRefresh: 100_000,
  signInSignUps: 100_000,
  tokenVerifications: 100_000,
  accountFailuresBeforeDelay: 100_000,
};

export async function startContractTarget(options: ContractTargetOptions = {}): Promise<ContractTarget> {
  if (isHostedTarget) {
    return {
      url: process.env.SUPABASE_TEST_URL!,
      anonKey: process.env.SUPABASE_TEST_ANON_KEY!,
      serviceRoleKey: process.env.SUPABASE_TEST_SERVICE_ROLE_KEY!,
      close: async () => {},
    };
  }
  const rateLimits = options.realRateLimits
    ? options.auth?.rateLimits
    : { ...HIGH_RATE_LIMITS, ...options.auth?.rateLimits };
  const backend = await createEmbeddedBackend({
    dataDir: null,
    databaseUrl: await scratchDatabaseUrl(),
    seed: options.seed,
    auth: { ...options.auth, rateLimits },
    clock: options.clock,
    devTools: options.devTools,
    log: () => {}, // emails are read from the outbox; no log line per email in the test output
  });
  // Like the app's HTTP layer: the backend counts requests by the connection's address, and sees
  // the request-target as it came in (dot segments unresolved).
  const server = await listen(
    createServer((req, res) =>
      createRequestListener((request, client) => backend.handle(request, client.address, req.url))(req, res),
    ),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  backend.setSiteUrl(url);
  return {
    url,
    anonKey: backend.anonKey,
    serviceRoleKey: backend.serviceRoleKey,
    backend,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await backend.close();
    },
  };
}

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
