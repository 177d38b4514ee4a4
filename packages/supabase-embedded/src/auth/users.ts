/**
 * `auth.users` / `auth.identities` access. New users are written exactly as GoTrue does:
 * one transaction as `supabase_auth_admin` with `search_path = auth`, role `''` at
 * INSERT then `authenticated`, identity inserted, metadata replaced by the identity data, then the
 * confirmation. A failing trigger aborts everything → 500 "Database error saving new user".
 */
import type { Database, Transaction } from '../database';
import { AuthError, unprocessable } from './errors';

export type Queryable = Pick<Transaction, 'query'>;
export type Json = Record<string, unknown>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change_token_new: string | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  reauthentication_token: string | null;
  reauthentication_sent_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Json | null;
  raw_user_meta_data: Json | null;
  created_at: Date | null;
  updated_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  confirmed_at: Date | null;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Json;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date | null;
  updated_at: Date | null;
  email: string | null;
}

export const INSTANCE_ID = '00000000-0000-0000-0000-000000000000';

export async function getUser(db: Queryable, id: string): Promise<UserRow | null> {
  return (await db.query<UserRow>('select * from auth.users where id = $1', [id])).rows[0] ?? null;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const result = await db.query<UserRow>(
    'select * from auth.users where lower(email) = lower($1) and is_sso_user = false',
    [email],
  );
  return result.rows[0] ?? null;
}

export async function listIdentities(db: Queryable, userId: string): Promise<IdentityRow[]> {
  return (
    await db.query<IdentityRow>('select * from auth.identities where user_id = $1 order by created_at, id', [userId])
  ).rows;
}

export const isBanned = (user: UserRow) => user.banned_until !== null && user.banned_until.getTime() > Date.now();

/**
 * A bcrypt hash (cost 10, as every stored one) of a random secret nobody knows: what a password
 * is checked against when there is no account, or no password on it, so that the answer takes as
 * long as a real check and its timing does not tell whether the account exists.
 */
const DUMMY_PASSWORD_HASH = '$2a$10$3cizOYn4J/tfl0wxTb7XyOzYKsAP29jVHi0AioDV6USXk9ficDC86';

/**
 * `true` when `password` matches the user's bcrypt hash. Always does the hash work, also for a
 * missing user (`userId` null) or one without a password, who never match.
 */
export async function checkPassword(db: Queryable, userId: string | null, password: string): Promise<boolean> {
  const result = await db.query<{ stored: string | null; computed: string }>(
    `with stored as (
       select (select encrypted_password from auth.users where id = $1 and encrypted_password like '$2%') as hash)
     select hash as stored, extensions.crypt($2, coalesce(hash, $3)) as computed from stored`,
    [userId, password, DUMMY_PASSWORD_HASH],
  );
  const row = result.rows[0];
  return Boolean(row?.stored) && row!.computed === row!.stored;
}

export async function setPassword(db: Queryable, userId: string, password: string): Promise<void> {
  await db.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10)), updated_at = now()
      where id = $1`,
    [userId, password],
  );
}

export interface NewUser {
  email: string;
  password?: string;
  /** `raw_user_meta_data` at INSERT: exactly the submitted data (or the provider profile). */
  userMetadata: Json;
  /** Extra `raw_app_meta_data` keys besides provider/providers (admin API). */
  appMetadata?: Json;
  provider: 'email' | 'google';
  /** Provider subject; for `email` the user id. */
  providerSubject?: string;
  /** Identity data; for `email` it is derived from the user. */
  identityData?: Json;
  confirm: boolean;
  /** Pending confirmation token and when it was sent (confirmation emails). */
  confirmationToken?: string;
  invited?: boolean;
}

/** Creates a user + identity as GoTrue does; throws 500 "Database error saving new user" on any DB error. */
export async function createUser(db: Database, input: NewUser): Promise<UserRow> {
  const id = crypto.randomUUID();
  try {
    return await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'supabase_auth_admin', true), set_config('search_path', 'auth', true)`);
      const appMetadata = { provider: input.provider, providers: [input.provider], ...(input.appMetadata ?? {}) };
      await tx.query(
        `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, raw_app_meta_data,
                                 raw_user_meta_data, is_super_admin, created_at, updated_at, is_sso_user, is_anonymous,
                                 confirmation_token, recovery_token, email_change_token_new, email_change,
                                 email_change_token_current, reauthentication_token, phone_change, phone_change_token)
         values ($1, $2, 'authenticated', '', $3,
                 case when $4::text is null then '' else extensions.crypt($4::text, extensions.gen_salt('bf', 10)) end,
                 $5, $6, false, now(), now(), false, false, '', '', '', '', '', '', '', '')`,
        [INSTANCE_ID, id, input.email, input.password ?? null, appMetadata, input.userMetadata],
      );
      await tx.query(`update auth.users set role = 'authenticated', updated_at = now() where id = $1`, [id]);
      const identityData =
        input.provider === 'email'
          ? { ...input.userMetadata, sub: id, email: input.email, email_verified: false, phone_verified: false }
          : { ...(input.identityData ?? input.userMetadata) };
      await tx.query(
        `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
         values ($1, $2, $3, $4, now(), now(), now())`,
        [input.providerSubject ?? id, id, identityData, input.provider],
      );
      await tx.query(`update auth.users set raw_user_meta_data = $2, updated_at = now() where id = $1`, [
        id,
        identityData,
      ]);
      if (input.invited) await tx.query(`update auth.users set invited_at = now() where id = $1`, [id]);
      if (input.confirm) await confirmEmail(tx, id);
      if (input.confirmationToken) {
        await tx.query(`update auth.users set confirmation_token = $2, confirmation_sent_at = now() where id = $1`, [
          id,
          input.confirmationToken,
        ]);
      }
      await tx.query('reset role');
      const user = await getUser(tx, id);
      if (!user) throw new Error('user vanished');
      return user;
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    // A trigger that refuses new accounts (sign-up closed) says so with SQLSTATE PT403: the same
    // answer as a configuration with sign-up off.
    if (sqlState(error) === 'PT403') throw unprocessable('signup_disabled', 'Signups not allowed for this instance');
    throw new AuthError(500, 'unexpected_failure', 'Database error saving new user');
  }
}

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

/** Marks the email confirmed: `email_confirmed_at`, and `email_verified` in metadata and identity. */
export async function confirmEmail(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update auth.users
        set email_confirmed_at = coalesce(email_confirmed_at, now()),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || '{"email_verified": true}'::jsonb,
            confirmation_token = '', updated_at = now()
      where id = $1`,
    [userId],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb, updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId],
  );
}

/** Adds a provider to `app_metadata.providers` (account linking). */
export async function addProvider(db: Queryable, userId: string, provider: string): Promise<void> {
  await db.query(
    `update auth.users
        set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
              (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from (
                 select jsonb_array_elements_text(coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb)) as p
                 union select $2) providers)),
            updated_at = now()
      where id = $1`,
    [userId, provider],
  );
}

/** Shallow merge into `raw_user_meta_data`; `null` values delete keys. */
export async function mergeUserMetadata(db: Queryable, userId: string, data: Json): Promise<void> {
  const removals = Object.keys(data).filter((key) => data[key] === null);
  const additions = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null));
  await db.query(
    `update auth.users set raw_user_meta_data = (coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb) - $3::text[],
            updated_at = now() where id = $1`,
    [userId, additions, removals],
  );
}

export async function mergeAppMetadata(db: Queryable, userId: string, data: Json): Promise<void> {
  const removals = Object.keys(data).filter((key) => data[key] === null);
  const additions = Object.fromEntries(Object.entries(data).filter(([, value]) => value !== null));
  await db.query(
    `update auth.users set raw_app_meta_data = (coalesce(raw_app_meta_data, '{}'::jsonb) || $2::jsonb) - $3::text[],
            updated_at = now() where id = $1`,
    [userId, additions, removals],
  );
}

/** Changes the address and the email identity's data (after a confirmed change or by an admin). */
export async function setEmail(db: Queryable, userId: string, email: string): Promise<void> {
  await db.query(
    `update auth.users set email = $2::text, email_change = '', email_change_token_new = '', email_change_token_current = '',
            email_change_sent_at = null, email_change_confirm_status = 0,
            raw_user_meta_data = case when raw_user_meta_data ? 'email' then raw_user_meta_data || jsonb_build_object('email', $2::text) else raw_user_meta_data end,
            updated_at = now()
      where id = $1`,
    [userId, email],
  );
  await db.query(
    `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
      where user_id = $1 and provider = 'email'`,
    [userId, email],
  );
}
