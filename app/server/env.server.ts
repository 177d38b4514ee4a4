/**
 * The environment, parsed once. Everything else imports `env` instead of reading process.env.
 */
import { z } from 'zod';

/** A positive whole number from the environment, e.g. a rate limit. */
const count = z.coerce.number().int().positive();

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    SUPABASE_URL: z.url().optional(),
    SUPABASE_ANON_KEY: z.string().min(1).optional(),
    SUPABASE_SERVICE_ROLE_KEY: z.string().min(1).optional(),
    EMBEDDED_DATA_DIR: z.string().min(1).default('.data'),
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
    /** Embedded backend only: override `[auth.rate_limit]` of config.toml (per client address). */
    EMBEDDED_AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: count.optional(),
    EMBEDDED_AUTH_RATE_LIMIT_ANONYMOUS_USERS: count.optional(),
    /** `npm start` sets it: seed the demo data (known passwords) on a new database; bind to 127.0.0.1. */
    DEMO_MODE: z.enum(['true', 'false']).default('false'),
  })
  .refine((env) => !env.SUPABASE_URL || env.SUPABASE_ANON_KEY, {
    message: 'SUPABASE_ANON_KEY is required when SUPABASE_URL is set',
    path: ['SUPABASE_ANON_KEY'],
  });

export type Env = z.infer<typeof EnvSchema>;

export const env: Env = EnvSchema.parse(process.env);

export const isProduction = env.NODE_ENV === 'production';

/** True when the app runs on its own embedded backend (no hosted Supabase configured). */
export const usesEmbeddedBackend = !env.SUPABASE_URL;

/** The one-command local demo (`npm start`): demo accounts with published passwords. */
export const isDemoMode = env.DEMO_MODE === 'true';
