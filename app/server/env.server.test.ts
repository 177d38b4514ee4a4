import { describe, expect, it } from 'vitest';
import { InvalidEnvironmentError, parseEnv } from '~/server/env.server';

/** The message parseEnv throws for `source`, or null when it parses. */
function problems(source: Record<string, string>): string | null {
  try {
    parseEnv(source);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    return (error as Error).message;
  }
}

describe('parseEnv', () => {
  it('gives the defaults for an empty environment', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      TRUST_PROXY: false,
      EMBEDDED_DATA_DIR: '.data',
      AUTH_RATE_LIMIT_PER_IP: 10,
      ENABLE_FAULT_INJECTION: false,
      ENABLE_PERF_FIXTURE: false,
      RENEWAL_INTERVAL_MS: 3_600_000,
    });
    expect(env.SUPABASE_URL).toBeUndefined();
    // server/app.ts picks 127.0.0.1 in demo mode and 0.0.0.0 otherwise.
    expect(env.HOST).toBeUndefined();
  });

  it('treats a set-but-empty variable as unset', () => {
    const env = parseEnv({
      SUPABASE_URL: '',
      SUPABASE_ANON_KEY: '',
      APP_URL: '  ',
      PORT: '',
      SESSION_SECRET: '',
      AUTH_RATE_LIMIT_PER_IP: '',
      EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH: '',
      TRUST_PROXY: '',
    });
    expect(env.SUPABASE_URL).toBeUndefined();
    expect(env.APP_URL).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
    expect(env.EMBEDDED_AUTH_RATE_LIMIT_TOKEN_REFRESH).toBeUndefined();
    expect(env.PORT).toBe(3000);
    expect(env.AUTH_RATE_LIMIT_PER_IP).toBe(10);
    expect(env.TRUST_PROXY).toBe(false);
  });

  it('types valid values', () => {
    const env = parseEnv({
      NODE_ENV: 'production',
      APP_URL: 'https://market.example.com',
      LICENSE_KEY_SECRET: 'a-licence-key-secret-of-32-chars!',
      SUPABASE_URL: 'https://project.supabase.co',
      SUPABASE_ANON_KEY: 'anon',
      PORT: '0',
      HOST: '127.0.0.1',
      TRUST_PROXY: 'true',
      AUTH_RATE_LIMIT_PER_EMAIL: '25',
      EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: '100000',
      ENABLE_FAULT_INJECTION: 'true',
      ENABLE_PERF_FIXTURE: 'false',
    });
    expect(env).toMatchObject({
      NODE_ENV: 'production',
      SUPABASE_URL: 'https://project.supabase.co',
      PORT: 0,
      HOST: '127.0.0.1',
      TRUST_PROXY: true,
      AUTH_RATE_LIMIT_PER_EMAIL: 25,
      EMBEDDED_AUTH_RATE_LIMIT_EMAIL_SENT: 100000,
      ENABLE_FAULT_INJECTION: true,
      ENABLE_PERF_FIXTURE: false,
    });
  });

  it('names each invalid variable on its own line and says what is expected', () => {
    const message = problems({
      SUPABASE_URL: 'not-a-url',
      SUPABASE_ANON_KEY: 'anon',
      PORT: 'eighty',
      TRUST_PROXY: 'yes',
    });
    expect(message?.split('\n')).toEqual([
      'Invalid configuration (environment variables):',
      '  SUPABASE_URL: expected an absolute URL, e.g. https://example.com',
      '  PORT: expected a number',
      '  TRUST_PROXY: Invalid option: expected one of "true"|"false"',
    ]);
  });

  it('reports limits out of range and cross-variable rules by name', () => {
    expect(problems({ AUTH_RATE_LIMIT_PER_IP: '0' })).toContain('AUTH_RATE_LIMIT_PER_IP: Too small');
    expect(problems({ PORT: '70000' })).toContain('PORT: Too big');
    expect(problems({ SUPABASE_URL: 'https://project.supabase.co' })).toContain(
      'SUPABASE_ANON_KEY: SUPABASE_ANON_KEY is required when SUPABASE_URL is set',
    );
  });

  const SECRET = 'a-licence-key-secret-of-32-chars!';

  it('requires APP_URL and LICENSE_KEY_SECRET in production, except for the demo', () => {
    expect(problems({ NODE_ENV: 'production', LICENSE_KEY_SECRET: SECRET })).toBe(
      'Invalid configuration (environment variables):\n' +
        '  APP_URL: required in production: the public origin of the links in emails, e.g. https://market.example.com',
    );
    expect(problems({ NODE_ENV: 'production', APP_URL: 'https://market.example.com' })).toBe(
      'Invalid configuration (environment variables):\n' +
        '  LICENSE_KEY_SECRET: required in production: 32 characters or more that make licence keys, kept outside the database',
    );
    expect(
      problems({ NODE_ENV: 'production', APP_URL: 'https://market.example.com', LICENSE_KEY_SECRET: SECRET }),
    ).toBeNull();
    expect(problems({ NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true', DEMO_MODE: 'true' })).toContain(
      'WEBHOOK_ALLOW_PRIVATE_ADDRESSES: is for development and tests',
    );
    expect(problems({ NODE_ENV: 'production', DEMO_MODE: 'true' })).toBeNull();
    expect(problems({ NODE_ENV: 'development' })).toBeNull();
  });

  it('takes the server-backed mode: DATABASE_URL, its pool, the storage folder and several workers', () => {
    const env = parseEnv({
      DATABASE_URL: 'postgres://app:secret@db.internal:5432/marketplace',
      DATABASE_POOL_SIZE: '20',
      STORAGE_DIR: '/srv/marketplace/files',
      WORKERS: '4',
    });
    expect(env).toMatchObject({ DATABASE_POOL_SIZE: 20, STORAGE_DIR: '/srv/marketplace/files', WORKERS: 4 });
    expect(parseEnv({ DATABASE_URL: 'postgresql://localhost/x', WORKERS: 'auto' }).WORKERS).toBeGreaterThanOrEqual(1);
    expect(parseEnv({}).WORKERS).toBe(1);
    expect(problems({ DATABASE_URL: 'mysql://localhost/x' })).toContain('DATABASE_URL: expected a postgres:// URL');
    expect(problems({ WORKERS: '2' })).toContain(
      'WORKERS: WORKERS above 1 needs DATABASE_URL or SUPABASE_URL (the PGlite database belongs to one process)',
    );
    expect(problems({ WORKERS: 'many' })).toContain('WORKERS:');
    expect(
      problems({
        SUPABASE_URL: 'https://project.supabase.co',
        SUPABASE_ANON_KEY: 'anon',
        DATABASE_URL: 'postgres://localhost/x',
      }),
    ).toContain('DATABASE_URL: DATABASE_URL is for the embedded backend');
  });

  it('takes Stripe only with its webhook secret, and says what each key looks like', () => {
    expect(problems({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toContain(
      'STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set',
    );
    const message = problems({
      STRIPE_SECRET_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_PREMIUM: 'x',
    });
    expect(message).toContain('STRIPE_SECRET_KEY: expected a Stripe secret key');
    expect(message).toContain('STRIPE_PRICE_PREMIUM: expected a Price id (price_…)');
    expect(message).not.toContain('pk_test_abc');
    expect(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_def' })).toMatchObject({
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_def',
    });
  });

  it('never echoes a value (it may be a secret)', () => {
    const message = problems({ SESSION_SECRET: 'short-secret' });
    expect(message).toContain('SESSION_SECRET: Too small');
    expect(message).not.toContain('short-secret');
  });
});
