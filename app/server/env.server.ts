/**
 * The environment, parsed once. Everything else imports `env` instead of reading process.env.
 */
import { z } from 'zod';

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
