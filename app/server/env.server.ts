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
    /** Development tools: the open outbox and the stand-in Google page (`/auth/v1/_local/*`). Never in production. */
    ENABLE_DEV_TOOLS: z.enum(['true', 'false']).optional(),
    /** Embedded backend: SMTP delivery (`smtp://user:pass@host:587`, `smtps://…:465`); overrides `[auth.email.smtp]`. */
    SMTP_URL: z.url().optional(),
    /** The From address with SMTP_URL, e.g. `AgentMarket <no-reply@example.com>`. */
    SMTP_FROM: z.string().min(3).optional(),
    /** Embedded backend: the Google OAuth client; overrides `[auth.external.google]` client_id/secret. */
    GOOGLE_CLIENT_ID: z.string().min(1).optional(),
    GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
    /** The OpenID Connect issuer for Google sign-in (tests point it at a local mock IdP). */
    GOOGLE_ISSUER_URL: z.url().optional(),
  })
  .refine((env) => !env.SUPABASE_URL || env.SUPABASE_ANON_KEY, {
    message: 'SUPABASE_ANON_KEY is required when SUPABASE_URL is set',
    path: ['SUPABASE_ANON_KEY'],
  })
  .refine((env) => !env.SMTP_URL || env.SMTP_FROM, {
    message: 'SMTP_FROM is required when SMTP_URL is set',
    path: ['SMTP_FROM'],
  })
  .refine((env) => !env.GOOGLE_CLIENT_ID === !env.GOOGLE_CLIENT_SECRET, {
    message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together',
    path: ['GOOGLE_CLIENT_SECRET'],
  });

export type Env = z.infer<typeof EnvSchema>;

export const env: Env = EnvSchema.parse(process.env);

export const isProduction = env.NODE_ENV === 'production';

/** True when the app runs on its own embedded backend (no hosted Supabase configured). */
export const usesEmbeddedBackend = !env.SUPABASE_URL;
