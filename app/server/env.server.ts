/**
 * The environment, parsed once. Everything else imports `env` instead of reading process.env
 * (server.js gets its port, host and proxy setting from the app; the embedded backend gets its
 * settings as options from server/app.ts). A set-but-empty variable counts as unset; an invalid
 * one stops start-up with one line per problem that names the variable (InvalidEnvironmentError,
 * which server.js prints without a stack trace).
 */
import os from 'node:os';
import { z } from 'zod';

/** A positive whole number from the environment, e.g. a rate limit. */
const count = z.coerce.number().int().positive();

/** An on/off switch: `true` or `false`, off when unset. */
const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((value) => value === 'true');

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    SUPABASE_URL: z.url().optional(),
    SUPABASE_ANON_KEY: z.string().min(1).optional(),
    SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
    /** Hosted Supabase: the project's JWT secret (Settings → API), for the seller API's tokens (ADR 074). */
    SUPABASE_JWT_SECRET: z.string().min(32).optional(),
    EMBEDDED_DATA_DIR: z.string().min(1).default('.data'),
    /**
     * Where snapshots of a new PGlite database are cached (ADR 025), or `none` to make each new
     * database from nothing. Default `node_modules/.cache/agent-marketplace`.
     */
    EMBEDDED_SNAPSHOT_DIR: z.string().min(1).optional(),
    /**
     * The server-backed mode (docs/deployment.md): the embedded Auth, Data API and Storage run
     * over this PostgreSQL 15+ server instead of PGlite, so that several processes can share it.
     */
    DATABASE_URL: z
      .url()
      .refine((value) => /^postgres(ql)?:\/\//.test(value), 'expected a postgres:// URL')
      .optional(),
    /**
     * How long one database statement of a signed-in (or service-role) request may run, in ms
     * (ADR 031): `statement_timeout` on DATABASE_URL, the statement's deadline on PGlite.
     * Default 8,000.
     */
    EMBEDDED_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
    /** The same for an anonymous request (ADR 032). Default 3,000, or the above when shorter. */
    EMBEDDED_ANON_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).optional(),
    /**
     * Data API and Storage requests that may wait for the database at once before more are
     * answered 503 (ADR 032). Default 128.
     */
    EMBEDDED_DB_MAX_WAITING: z.coerce.number().int().min(0).max(100_000).optional(),
    /** How long one such request may wait for the database, in ms, before it is answered 503. Default 3,000. */
    EMBEDDED_DB_MAX_WAIT_MS: z.coerce.number().int().min(1).max(3_600_000).optional(),
    /** Such requests one client (user, else address) may have in the database at once; more: 429. Default 16. */
    EMBEDDED_DB_REQUESTS_PER_CLIENT: count.optional(),
    /** Connections per app process to DATABASE_URL. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(500).default(10),
    /**
     * Where the embedded Storage keeps file bytes. Default `<EMBEDDED_DATA_DIR>/storage`; with
     * DATABASE_URL, a folder every app process on the machine shares (or a network mount).
     */
    STORAGE_DIR: z.string().min(1).optional(),
    /** server.js: app processes to start (`auto`: one per core). Above 1 needs DATABASE_URL or SUPABASE_URL. */
    WORKERS: z
      .union([z.literal('auto'), z.coerce.number().int().min(1).max(256)])
      .default(1)
      .transform((value) => (value === 'auto' ? os.availableParallelism() : value)),
    SESSION_SECRET: z.string().min(16).optional(),
    APP_URL: z.url().optional(),
    /** Embedded backend only: overrides `[auth.email] enable_confirmations` of config.toml. */
    EMBEDDED_EMAIL_CONFIRMATIONS: z.enum(['true', 'false']).optional(),
    /** The app's sign-in, sign-up and reset forms: attempts per minute per client address. */
    AUTH_RATE_LIMIT_PER_IP: count.default(10),
    /** …and per email address from one client address. */
    AUTH_RATE_LIMIT_PER_EMAIL: count.default(10),
    /** Failed sign-ins on one account (any address) per hour before each further attempt is delayed. */
    AUTH_FAILURES_BEFORE_DELAY: count.default(10),
    /** Newsletter sign-ups per minute per client address. */
    NEWSLETTER_RATE_LIMIT_PER_IP: count.default(5),
    /** Licence checks (`POST /api/v1/licenses/verify`) per minute per client address, and per key from anywhere. */
    LICENSE_VERIFY_RATE_LIMIT_PER_IP: count.default(120),
    LICENSE_VERIFY_RATE_LIMIT_PER_KEY: count.default(30),
    /** Seller API requests per minute per API token. */
    API_RATE_LIMIT_PER_TOKEN: count.default(300),
    /**
     * The secret that licence keys are made with (ADR 073): set it in production, 32 characters or
     * more, the same in every process, and never change it (every key would change). Unset, a
     * random one kept in the database serves, and a copy of the database then holds usable keys.
     */
    LICENSE_KEY_SECRET: z.string().min(32).optional(),
    /** Embedded backend only: override `[auth.rate_limit]` of config.toml (per client address). */
    EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_ANONYMOUS_USERS: count.optional(),
    /** `npm start` sets it: seed the demo data (known passwords) on a new database; bind to 127.0.0.1. */
    DEMO_MODE: z.enum(['true', 'false']).default('false'),
    /** server.js: where to listen (PORT=0 picks a free port) and whether to trust X-Forwarded-* from a proxy. */
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Default: 127.0.0.1 in demo mode (known passwords stay on this machine), else 0.0.0.0. */
    HOST: z.string().min(1).optional(),
    TRUST_PROXY: flag,
    /** Tests only: a cookie can make backend calls fail (app/server/faults.server.ts). */
    ENABLE_FAULT_INJECTION: flag,
    /** The benchmark's fixture page /__perf/fixture (app/routes/perf-fixture.tsx). */
    ENABLE_PERF_FIXTURE: flag,
    /** Development tools: the open outbox and the stand-in Google page (`/auth/v1/_local/*`). Never in production. */
    ENABLE_DEV_TOOLS: flag,
    /**
     * SMTP delivery (`smtp://user:pass@host:587`, `smtps://…:465`): the app's own emails (receipts,
     * sale notices), and the embedded backend's Auth emails (overrides `[auth.email.smtp]`).
     */
    SMTP_URL: z.url().optional(),
    /** The From address of the Auth emails with SMTP_URL, e.g. `AgentMarket <no-reply@example.com>`; default MAIL_FROM. */
    SMTP_FROM: z.string().min(3).optional(),
    /** The From address of the app's own emails with SMTP_URL, e.g. `AgentMarket <orders@example.com>`; default SMTP_FROM. */
    MAIL_FROM: z.string().min(3).optional(),
    /** Embedded backend: the Google OAuth client; overrides `[auth.external.google]` client_id/secret. */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** The OpenID Connect issuer for Google sign-in (tests point it at a local mock IdP). */
    GOOGLE_ISSUER_URL: z.url().optional(),
    /** How long a request body may take to arrive in full before the answer is 408 (server/body-limit.ts). */
    REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    /** Stripe (ADR 019): set, it replaces the test-mode provider; `sk_live_…`/`sk_test_…` or a restricted `rk_…` key. */
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(live|test)_\w+$/, 'expected a Stripe secret key (sk_live_…, sk_test_… or rk_…)')
      .optional(),
    /** The signing secret of the `/webhooks/stripe` endpoint (Dashboard → Webhooks, or `stripe listen`). */
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, 'expected a webhook signing secret (whsec_…)')
      .optional(),
    /** The monthly Price of each paid tier; unset: the active Price with lookup key `premium_monthly` / `enterprise_monthly`. */
    STRIPE_PRICE_PREMIUM: z
      .string()
      .regex(/^price_\w+$/, 'expected a Price id (price_…)')
      .optional(),
    STRIPE_PRICE_ENTERPRISE: z
      .string()
      .regex(/^price_\w+$/, 'expected a Price id (price_…)')
      .optional(),
    /** How often the webhook deliveries are sent by this server (app/server/webhooks.server.ts); 0 turns it off. */
    WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(0).default(5000),
    /** Development and tests only: deliver webhooks to this machine and private networks too (refused in production). */
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES: flag,
    /** How often the renewal job runs in this server (app/server/renewals.server.ts); 0 turns it off. */
    RENEWAL_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .default(60 * 60 * 1000),
  })
  // Links in emails and allowed redirects are built on APP_URL, never on a request's Host header:
  // a deployment names its public origin. The demo (`npm start`) needs no configuration: its
  // links stay on the loopback names of its own port (app/server/public-origin.server.ts).
  .refine((env) => env.NODE_ENV !== 'production' || env.DEMO_MODE === 'true' || env.APP_URL, {
    message: 'required in production: the public origin of the links in emails, e.g. https://market.example.com',
    path: ['APP_URL'],
  })
  // Licence keys are an HMAC under this secret: kept out of the database, a copy of the database
  // holds no usable key (ADR 073). The demo keeps a random one in its database instead.
  .refine((env) => env.NODE_ENV !== 'production' || env.DEMO_MODE === 'true' || env.LICENSE_KEY_SECRET, {
    message: 'required in production: 32 characters or more that make licence keys, kept outside the database',
    path: ['LICENSE_KEY_SECRET'],
  })
  .refine((env) => !env.SUPABASE_URL || env.SUPABASE_ANON_KEY, {
    message: 'SUPABASE_ANON_KEY is required when SUPABASE_URL is set',
    path: ['SUPABASE_ANON_KEY'],
  })
  .refine((env) => !(env.SUPABASE_URL && env.DATABASE_URL), {
    message: 'DATABASE_URL is for the embedded backend; with SUPABASE_URL the database is the hosted project’s',
    path: ['DATABASE_URL'],
  })
  .refine((env) => env.WORKERS === 1 || env.DATABASE_URL || env.SUPABASE_URL, {
    message: 'WORKERS above 1 needs DATABASE_URL or SUPABASE_URL (the PGlite database belongs to one process)',
    path: ['WORKERS'],
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM || env.SMTP_FROM, {
    message: 'MAIL_FROM (or SMTP_FROM) is required when SMTP_URL is set',
    path: ['MAIL_FROM'],
  })
  .refine((env) => !env.STRIPE_SECRET_KEY || env.STRIPE_WEBHOOK_SECRET, {
    message: 'STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (webhooks settle payments)',
    path: ['STRIPE_WEBHOOK_SECRET'],
  })
  .refine((env) => !(env.NODE_ENV === 'production' && env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES), {
    message: 'is for development and tests: production never delivers webhooks to private addresses',
    path: ['WEBHOOK_ALLOW_PRIVATE_ADDRESSES'],
  })
  .refine((env) => !env.GOOGLE_CLIENT_ID === !env.GOOGLE_CLIENT_SECRET, {
    message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together',
    path: ['GOOGLE_CLIENT_SECRET'],
  });

export type Env = z.infer<typeof EnvSchema>;

/** Thrown when a variable is invalid; its message has one `VARIABLE: what is expected` line per problem. */
export class InvalidEnvironmentError extends Error {
  override name = 'InvalidEnvironmentError';
}

/** Parses `source` (normally process.env) or throws InvalidEnvironmentError. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // `SUPABASE_URL=` (or only spaces) means "not set", as in a .env file with the value left out.
  const set = Object.fromEntries(Object.entries(source).filter(([, value]) => value?.trim()));
  const result = EnvSchema.safeParse(set, { error: expectation });
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || 'environment'}: ${issue.message}`);
  throw new InvalidEnvironmentError(`Invalid configuration (environment variables):\n${lines.join('\n')}`);
}

/** zod's default messages, except the two that do not say what is expected. Values are never echoed (secrets). */
function expectation(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === 'invalid_format' && issue.format === 'url')
    return 'expected an absolute URL, e.g. https://example.com';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'expected a number';
  return undefined;
}

export const env: Env = parseEnv(process.env);

export const isProduction = env.NODE_ENV === 'production';

/** The one-command local demo (`npm start`): demo accounts with published passwords. */
export const isDemoMode = env.DEMO_MODE === 'true';
