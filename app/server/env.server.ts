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
    /** How long a request body may take to arrive in full before the answer is 408 (server/body-limit.ts). */
    REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
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
