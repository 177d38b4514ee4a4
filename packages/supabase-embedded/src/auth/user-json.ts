/** The user and identity JSON GoTrue answers (null timestamps omitted). */
import type { FactorRow } from './mfa';
import { listFactors } from './mfa';
import type { IdentityRow, Json, Queryable, UserRow } from './users';
import { getUser, listIdentities } from './users';

const iso = (value: Date | null | undefined) => (value ? value.toISOString() : undefined);

function withoutUndefined(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

export function identityJson(identity: IdentityRow): Json {
  return withoutUndefined({
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: identity.email ?? undefined,
  });
}

export function factorJson(factor: FactorRow): Json {
  return withoutUndefined({
    id: factor.id,
    friendly_name: factor.friendly_name ?? '',
    factor_type: factor.factor_type,
    status: factor.status,
    created_at: iso(factor.created_at),
    updated_at: iso(factor.updated_at),
    last_challenged_at: iso(factor.last_challenged_at),
  });
}

export function buildUserJson(user: UserRow, identities: IdentityRow[], factors: FactorRow[]): Json {
  return withoutUndefined({
    id: user.id,
    aud: user.aud ?? 'authenticated',
    role: user.role ?? 'authenticated',
    email: user.email ?? '',
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? '',
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: iso(user.confirmed_at ?? user.email_confirmed_at ?? user.phone_confirmed_at),
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change || undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    banned_until: iso(user.banned_until),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
    factors: factors.length ? factors.map(factorJson) : undefined,
  });
}

/** Loads a user with identities and factors and renders it; `null` when the user is gone. */
export async function loadUserJson(db: Queryable, userId: string): Promise<Json | null> {
  const user = await getUser(db, userId);
  if (!user) return null;
  const [identities, factors] = [await listIdentities(db, userId), await listFactors(db, userId)];
  return buildUserJson(user, identities, factors);
}
