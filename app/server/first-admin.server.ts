/**
 * The first administrator of a real deployment. No account with a known password is created:
 * while no administrator exists, the server prints a one-time link `<APP_URL>/setup?token=…` in
 * its log at start-up (as Gitea and Grafana do), and whoever can read the log makes the account
 * there. Only the token's SHA-256 is kept, in this process: a restart prints a new link and the
 * old one stops working; using it once, or any administrator appearing, closes it for good.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SupabaseConnection } from '~/context';
import { createServiceSupabase } from '~/server/supabase.server';

export interface FirstAdminSetup {
  /** A new token (the previous one stops working). */
  issue(): string;
  /** Whether `token` is the current, unspent token (constant-time comparison of hashes). */
  matches(token: unknown): boolean;
  /** Takes the token for one attempt; false when it does not match or an attempt is under way. */
  claim(token: unknown): boolean;
  /** The attempt failed (e.g. a typo in the form): the token may be used again. */
  release(): void;
  /** The administrator exists: the token never works again. */
  spend(): void;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

export function createFirstAdminSetup(): FirstAdminSetup {
  let hash: Buffer | null = null;
  let busy = false;
  const matches = (token: unknown) =>
    typeof token === 'string' && token.length > 0 && hash !== null && timingSafeEqual(digest(token), hash);
  return {
    issue() {
      const token = randomBytes(32).toString('base64url');
      hash = digest(token);
      busy = false;
      return token;
    },
    matches,
    claim(token) {
      if (busy || !matches(token)) return false;
      busy = true;
      return true;
    },
    release() {
      busy = false;
    },
    spend() {
      hash = null;
      busy = false;
    },
  };
}

/** Whether any administrator exists, read with the service role (row-level security aside). */
export async function adminExists(connection: SupabaseConnection): Promise<boolean> {
  const { data, error } = await createServiceSupabase(connection)
    .from('users')
    .select('id')
    .eq('user_type', 'admin')
    .limit(1);
  if (error) throw new Error(`Could not check for an administrator: ${error.message}`);
  return data.length > 0;
}

/**
 * What the start-up log says about the first administrator: nothing once one exists, else a
 * fresh one-time link (or, without a service key on hosted Supabase, how to make one by hand).
 */
export async function firstAdminNotice(
  connection: SupabaseConnection,
  setup: FirstAdminSetup,
  origin: string,
): Promise<string[]> {
  if (!connection.serviceRoleKey) {
    return [
      'No SUPABASE_SERVICE_ROLE_KEY is set, so the server cannot check for or create the first administrator.',
      'To make one: sign up in the app, then in the Supabase SQL editor run',
      "  update public.users set user_type = 'admin' where email = '<your email>';",
    ];
  }
  if (await adminExists(connection)) return [];
  const token = setup.issue();
  return [
    'No administrator account exists yet. Create the first one here (the link works once):',
    `  ${origin.replace(/\/$/, '')}/setup?token=${token}`,
    'Anyone with this link can become the administrator: keep the log private. A restart prints a new link.',
  ];
}
