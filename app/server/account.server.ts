/**
 * The account's own self-service (the profile page): the picture, Change Password, the
 * session list, the data export and Delete Account. Every function here is called only after
 * `requireUser`/`requirePermission` in the route; the viewer's own client (row-level security,
 * Storage policies) does what the user may do, the service role only what no policy can grant
 * (deleting the Auth user) and only after the checks written out below.
 */
import type { SupabaseConnection } from '~/context';
import { detectImageKind, IMAGE_CONTENT_TYPES, IMAGE_EXTENSIONS, type ImageKind } from '~/lib/file-signatures';
import { describeDevice } from '~/lib/user-agent';
import type { Viewer } from '~/lib/viewer';
import { ACCOUNT_MESSAGES, MAX_PICTURE_BYTES } from '~/schemas/account';
import { forgetCatalogue } from '~/server/agents.server';
import { readAll, unwrap, type QueryResult } from '~/server/http-errors.server';
import { createServiceSupabase, throwawaySupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { forgetViewer } from '~/server/viewer.server';
import { AVATARS_BUCKET, IMAGES_BUCKET, PACKAGES_BUCKET } from '~/lib/storage-buckets';
import { hasPermission } from '~/lib/permissions';
import type { Refusal } from '~/lib/refusal';

export type AccountResult = { ok: true } | ({ ok: false } & Refusal);

const refused = (status: Refusal['status'], message: string, field?: string): AccountResult => ({
  ok: false,
  status,
  message,
  field,
});

/** The viewer's name, picture and listings show in the header and on catalogue pages. */
function forgetCaches(userId: string): void {
  forgetViewer(userId);
  forgetCatalogue();
}

// ---------------------------------------------------------------------------------------------
// Picture
// ---------------------------------------------------------------------------------------------

const PICTURE_KINDS: readonly ImageKind[] = ['jpeg', 'png', 'gif'];

export type CheckedPicture =
  { ok: true; kind: ImageKind; bytes: Uint8Array<ArrayBuffer> } | { ok: false; message: string };

/** Size first (2 MB), then the file's own bytes: JPEG, PNG or GIF, whatever its name or declared type. */
export async function checkPicture(file: File | undefined): Promise<CheckedPicture> {
  if (!file) return { ok: false, message: ACCOUNT_MESSAGES.pictureMissing };
  if (file.size > MAX_PICTURE_BYTES) return { ok: false, message: ACCOUNT_MESSAGES.pictureTooLarge };
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = detectImageKind(bytes);
  return kind && PICTURE_KINDS.includes(kind)
    ? { ok: true, kind, bytes }
    : { ok: false, message: ACCOUNT_MESSAGES.pictureType };
}

/**
 * Where a profile picture is stored: the same-site path of the upload in the avatars bucket, the
 * only picture the database takes (`public.is_own_avatar`: no URL of another site, which would
 * be a tracking pixel on every page that shows it).
 */
export const AVATAR_PATH = `/storage/v1/object/public/${AVATARS_BUCKET}/`;

/**
 * Where the browser reads a stored Storage path: this site for the embedded backend (the CSP's
 * img-src 'self'), hosted Supabase's own origin otherwise ('' = this site).
 */
export function storageOrigin(connection: Pick<SupabaseConnection, 'url' | 'fetch'>): string {
  return connection.fetch ? '' : new URL(connection.url).origin;
}

/** Storage lists one folder level per call, a page at a time. */
const LIST_PAGE = 1000;

/**
 * Every file under `folder` of `bucket`, however deep. A listing that fails is logged and counts
 * as empty (what it held stays in the bucket).
 */
async function filesUnder(client: AppSupabaseClient, bucket: string, folder: string): Promise<string[]> {
  const files: string[] = [];
  for (let offset = 0; ; offset += LIST_PAGE) {
    const { data, error } = await client.storage.from(bucket).list(folder, { limit: LIST_PAGE, offset });
    if (error) {
      console.error(`Listing ${bucket}/${folder} failed:`, error.message);
      return files;
    }
    for (const entry of data) {
      const path = `${folder}/${entry.name}`;
      // Folders come back without an id.
      if (entry.id === null) files.push(...(await filesUnder(client, bucket, path)));
      else files.push(path);
    }
    if (data.length < LIST_PAGE) return files;
  }
}

/** Every object in the user's folder of the avatars bucket. */
const ownPictures = (client: AppSupabaseClient, userId: string) => filesUnder(client, AVATARS_BUCKET, userId);

/** Removes `paths` from `bucket`, a thousand at a time; a failure is logged. */
async function removeFiles(client: AppSupabaseClient, bucket: string, paths: string[]): Promise<void> {
  for (let start = 0; start < paths.length; start += LIST_PAGE) {
    const { error } = await client.storage.from(bucket).remove(paths.slice(start, start + LIST_PAGE));
    if (error) console.error(`Removing files from ${bucket} failed:`, error.message);
  }
}

/**
 * A deleted seller's files (images and packages live under `<seller>/<agent>/`): those of the
 * agents a buyer keeps stay (the collection shows the thumbnail, the agent page the gallery, the
 * packages stay downloadable); everything else goes: the deleted agents' images and packages,
 * and images left by forms never sent.
 */
async function removeUnsoldFiles(service: AppSupabaseClient, sellerId: string, keptAgentIds: Set<string>) {
  for (const bucket of [IMAGES_BUCKET, PACKAGES_BUCKET]) {
    const files = await filesUnder(service, bucket, sellerId);
    const unkept = files.filter((path) => !keptAgentIds.has(path.split('/')[1] ?? ''));
    await removeFiles(service, bucket, unkept);
  }
}

/**
 * Stores a checked picture under the user's own folder with their own client (the Storage
 * policies refuse any other folder), points users.profile_image_url at it, then removes the
 * earlier pictures. If the profile update fails the new file is removed again: nothing changes.
 */
export async function replacePicture(
  client: AppSupabaseClient,
  userId: string,
  picture: { kind: ImageKind; bytes: Uint8Array<ArrayBuffer> },
): Promise<AccountResult> {
  const bucket = client.storage.from(AVATARS_BUCKET);
  const before = await ownPictures(client, userId);
  const path = `${userId}/${crypto.randomUUID()}.${IMAGE_EXTENSIONS[picture.kind]}`;
  const upload = await bucket.upload(path, picture.bytes, {
    contentType: IMAGE_CONTENT_TYPES[picture.kind],
    upsert: false,
    cacheControl: '31536000',
  });
  if (upload.error) {
    console.error('Picture upload failed:', upload.error.message);
    return refused(503, ACCOUNT_MESSAGES.pictureFailed, 'picture');
  }
  const { error } = await client
    .from('users')
    .update({ profile_image_url: `${AVATAR_PATH}${path}`, updated_at: new Date().toISOString() })
    .eq('id', userId);
  if (error) {
    console.error('Picture URL update failed:', error.code, error.message);
    await bucket.remove([path]);
    return refused(503, ACCOUNT_MESSAGES.pictureFailed, 'picture');
  }
  await removeFiles(client, AVATARS_BUCKET, before);
  forgetCaches(userId);
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Password
// ---------------------------------------------------------------------------------------------

/**
 * Checks the current password by signing in with it on a throwaway client (its session is
 * ended at once), sets the new one on the viewer's own session, then ends every OTHER session
 * of the user (their refresh tokens stop working); this browser stays signed in.
 */
export async function changePassword(
  client: AppSupabaseClient,
  connection: SupabaseConnection,
  { id: userId, email }: { id: string; email: string },
  currentPassword: string,
  newPassword: string,
): Promise<AccountResult> {
  const check = throwawaySupabase(connection);
  const { error: wrong } = await check.auth.signInWithPassword({ email, password: currentPassword });
  if (wrong) {
    if (wrong.status === 429) return refused(400, wrong.message, 'currentPassword');
    if (wrong.status && wrong.status >= 500) return refused(503, ACCOUNT_MESSAGES.passwordFailed);
    return refused(400, ACCOUNT_MESSAGES.currentPasswordWrong, 'currentPassword');
  }
  await check.auth.signOut({ scope: 'local' });
  // With secure_password_change (config.toml) the Auth service wants the current password too.
  const { error } = await client.auth.updateUser({ password: newPassword, current_password: currentPassword });
  if (error) {
    console.error('Password change failed:', error.status, error.message);
    return refused(error.status && error.status >= 500 ? 503 : 400, error.message, 'password');
  }
  return endOtherSessions(client, userId);
}

/**
 * Signs out every session of the user except this browser's, and forgets the remembered viewers
 * of the user, so the other browsers' next request is signed out at once rather than after the
 * viewer cache's few seconds.
 */
export async function endOtherSessions(client: AppSupabaseClient, userId: string): Promise<AccountResult> {
  const { error } = await client.auth.signOut({ scope: 'others' });
  forgetViewer(userId);
  if (error) {
    console.error('Ending the other sessions failed:', error.message);
    return refused(503, ACCOUNT_MESSAGES.sessionsFailed);
  }
  return { ok: true };
}

// ---------------------------------------------------------------------------------------------
// Sessions
// ---------------------------------------------------------------------------------------------

export interface AccountSession {
  id: string;
  device: string;
  signedInAt: string;
  lastActiveAt: string;
  current: boolean;
}

/** The `session_id` claim of an access token (its signature was checked by the Auth service). */
export function sessionIdOf(accessToken: string | undefined): string | null {
  const payload = accessToken?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { session_id?: unknown };
    return typeof claims.session_id === 'string' ? claims.session_id : null;
  } catch {
    return null;
  }
}

/** The user's sessions through `my_sessions()` (only auth.uid()'s rows), this browser's first. */
export async function listSessions(client: AppSupabaseClient): Promise<AccountSession[]> {
  const [{ data: sessionData }, rows] = await Promise.all([
    client.auth.getSession(),
    client.rpc('my_sessions').then((result) => unwrap(result, 'sessions')),
  ]);
  const currentId = sessionIdOf(sessionData.session?.access_token);
  return rows
    .map((row) => ({
      id: row.id,
      device: describeDevice(row.user_agent),
      signedInAt: row.created_at,
      lastActiveAt: row.last_active_at,
      current: row.id === currentId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

// ---------------------------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------------------------

export const EXPORT_FORMAT = 'agentmarket.account-export';
/**
 * 2: adds `subscriptions` and `subscription_charges` (memberships and what they were charged).
 * 3: adds `payment_methods` (brand, last four digits, expiry: all the product keeps of a card).
 * 4: adds `policy_acceptances` (which version of each policy was accepted, and when).
 * 5: adds `licenses` (the licences of the purchases), `api_tokens` and `webhook_endpoints` (never a hash or a secret).
 */
export const EXPORT_VERSION = 5;

/** A read that can be ordered and cut into batches (a supabase-js query before `.range`). */
type Ordered<T> = {
  order(column: string): Ordered<T>;
  range(from: number, to: number): PromiseLike<QueryResult<T[]>>;
};

/**
 * Everything the product holds about the user, read with their own client (row-level security
 * is the boundary): profile, settings, purchases, reviews, downloads, memberships (subscriptions
 * and their charges), saved payment methods, and for sellers their agents (every status) and sales.
 */
export async function exportAccount(client: AppSupabaseClient, viewer: Viewer, now = new Date()) {
  const isSeller = hasPermission(viewer.role, 'list_products');
  // The lists that grow with use are read a batch at a time (one read stops at 1,000 rows), oldest
  // first with the id as the tie-break so that no row is read twice or missed between batches.
  const every = <T>(query: () => Ordered<T>, what: string) =>
    readAll((from, to) => query().order('created_at').order('id').range(from, to), what);
  const [
    profile,
    settings,
    purchases,
    reviews,
    downloads,
    subscriptions,
    charges,
    methods,
    agents,
    sales,
    acceptances,
    licenses,
    tokens,
    endpoints,
  ] = await Promise.all([
    client.from('users').select('*').eq('id', viewer.id).single(),
    client.from('user_settings').select('*').eq('user_id', viewer.id).maybeSingle(),
    every(() => client.from('purchases').select('*').eq('buyer_id', viewer.id), 'export purchases'),
    every(() => client.from('reviews').select('*').eq('buyer_id', viewer.id), 'export reviews'),
    every(() => client.from('downloads').select('*').eq('buyer_id', viewer.id), 'export downloads'),
    every(() => client.from('subscriptions').select('*').eq('user_id', viewer.id), 'export subscriptions'),
    every(() => client.from('subscription_charges').select('*').eq('user_id', viewer.id), 'export charges'),
    client.from('payment_methods').select('*').eq('user_id', viewer.id).order('created_at'),
    isSeller ? every(() => client.from('agents').select('*').eq('seller_id', viewer.id), 'export agents') : [],
    isSeller ? every(() => client.from('purchases').select('*').eq('seller_id', viewer.id), 'export sales') : [],
    // Which version of each policy the user accepted, and when (ADR 069).
    client
      .from('policy_acceptances')
      .select('document, version, accepted_at')
      .eq('user_id', viewer.id)
      .order('accepted_at')
      .order('document'),
    // Licences of the user's purchases (the key's public code; the key itself is on My Collection).
    every(
      () =>
        client
          .from('licenses')
          .select('id, purchase_id, agent_id, code, uses, last_used_at, uses_reset_at, disabled_reason, created_at')
          .eq('buyer_id', viewer.id),
      'export licences',
    ),
    // API tokens and webhook endpoints (ADRs 074, 076): never a token's hash or a signing secret.
    client
      .from('api_tokens')
      .select('id, name, scopes, token_prefix, expires_at, last_used_at, created_at')
      .eq('user_id', viewer.id)
      .order('created_at'),
    client
      .from('webhook_endpoints')
      .select('id, url, events, failing_since, created_at')
      .eq('seller_id', viewer.id)
      .order('created_at'),
  ]);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: now.toISOString(),
    account: { id: viewer.id, email: viewer.email, role: viewer.role, created_at: viewer.createdAt },
    profile: unwrap(profile, 'export profile'),
    settings: unwrap(settings, 'export settings'),
    purchases,
    reviews,
    downloads,
    subscriptions,
    subscription_charges: charges,
    payment_methods: unwrap(methods, 'export payment methods'),
    agents,
    sales,
    policy_acceptances: unwrap(acceptances, 'export policy acceptances'),
    licenses,
    api_tokens: unwrap(tokens, 'export API tokens'),
    webhook_endpoints: unwrap(endpoints, 'export webhook endpoints'),
  };
}

export type AccountExport = Awaited<ReturnType<typeof exportAccount>>;

// ---------------------------------------------------------------------------------------------
// Delete
// ---------------------------------------------------------------------------------------------

/** The seller's published agents (their names), for the warning before Delete Account. */
export async function publishedAgentNames(client: AppSupabaseClient, userId: string): Promise<string[]> {
  const rows = unwrap(
    await client.from('agents').select('name').eq('seller_id', userId).eq('status', 'published').order('name'),
    'published agents',
  );
  return rows.map((row) => row.name);
}

/**
 * Deletes the viewer's account once they typed their username. In order: the last active
 * administrator is refused (public.is_last_active_admin, the rule the database enforces); the
 * seller's published agents are archived (unpublished) and the agents nobody bought are deleted
 * (the sold ones stay, with no seller, for their buyers); the files of the deleted agents go, the
 * sold ones' stay (`removeUnsoldFiles`); the pictures are removed; then the Auth user is deleted with the service role, which cascades
 * to the profile, settings, reviews (their text) and downloads, sets purchases' buyer to null
 * (sellers keep their sales, anonymised) and ends every session. The database refuses deleting
 * the last administrator too (public.guard_user_delete), should one be demoted meanwhile.
 */
export async function deleteAccount(
  client: AppSupabaseClient,
  connection: SupabaseConnection,
  viewer: Viewer,
  confirmUsername: string,
): Promise<AccountResult> {
  if (confirmUsername !== viewer.username) return refused(400, ACCOUNT_MESSAGES.confirmUsername, 'confirmUsername');
  const service = createServiceSupabase(connection);
  // Asked before anything is archived or removed; the database's delete trigger asks the same.
  const lastAdmin = await service.rpc('is_last_active_admin', { target: viewer.id });
  if (lastAdmin.error) return refused(503, ACCOUNT_MESSAGES.deleteFailed);
  if (lastAdmin.data) return refused(409, ACCOUNT_MESSAGES.lastAdmin);

  const archived = await service
    .from('agents')
    .update({ status: 'archived', updated_at: new Date().toISOString() })
    .eq('seller_id', viewer.id)
    .eq('status', 'published');
  if (archived.error) {
    console.error('Unpublishing the agents failed:', archived.error.message);
    return refused(503, ACCOUNT_MESSAGES.deleteFailed);
  }
  // The agents nobody bought go, in one statement in the database; the sold ones stay (their ids).
  const { data: kept, error: unsoldError } = await service.rpc('delete_unsold_agents', { seller: viewer.id });
  // Had the unsold agents stayed, their files would still be theirs.
  if (unsoldError) console.error('Deleting the unsold agents failed:', unsoldError.message);
  else await removeUnsoldFiles(service, viewer.id, new Set(kept));

  await removeFiles(service, AVATARS_BUCKET, await ownPictures(service, viewer.id));

  const { error } = await service.auth.admin.deleteUser(viewer.id);
  if (error) {
    console.error('Deleting the Auth user failed:', error.status, error.message);
    if (/last administrator/i.test(error.message)) return refused(409, ACCOUNT_MESSAGES.lastAdmin);
    return refused(503, ACCOUNT_MESSAGES.deleteFailed);
  }
  // The sessions are gone with the user; this clears the browser's cookies.
  await client.auth.signOut({ scope: 'local' });
  forgetCaches(viewer.id);
  return { ok: true };
}
