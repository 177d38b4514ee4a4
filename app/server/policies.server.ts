/**
 * The policies (ADR 069): reading a version (the one in force or an earlier one), publishing a
 * new one (as the admin: row-level security says who may, the database numbers and dates it),
 * the documents a signed-in user still has to accept, recording an acceptance, and the guard that
 * sends a user to accept them before a purchase or a listing change.
 */
import { redirect, type RouterContextProvider } from 'react-router';
import { supabaseContext } from '~/context';
import { POLICIES_ACCEPT_PATH, POLICY_DOCUMENTS, isPolicyDocument, type PolicyDocument } from '~/lib/policies';
import { notFound, unwrap } from '~/server/http-errors.server';
import { renderMarkdown } from '~/server/markdown.server';
import type { AppSupabaseClient } from '~/server/supabase.server';

export interface PolicyVersionSummary {
  version: number;
  summary: string;
  publishedAt: string;
}

export interface PolicyVersion extends PolicyVersionSummary {
  document: PolicyDocument;
  body: string;
  html: string;
}

/** A document's version (the one in force without `version`), rendered; 404 when there is none. */
export async function readPolicy(
  client: AppSupabaseClient,
  document: PolicyDocument,
  version?: number,
): Promise<PolicyVersion> {
  let query = client
    .from('policy_versions')
    .select('version, body, summary, published_at')
    .eq('document', document)
    .order('version', { ascending: false })
    .limit(1);
  if (version !== undefined) query = query.eq('version', version);
  const [row] = unwrap(await query, 'policy version');
  if (!row) notFound({ title: 'Version not found', message: 'This version of the policy does not exist.' });
  return {
    document,
    version: row.version,
    body: row.body,
    html: renderMarkdown(row.body),
    summary: row.summary,
    publishedAt: row.published_at,
  };
}

/** Every version of a document, newest first. */
export async function listPolicyVersions(
  client: AppSupabaseClient,
  document: PolicyDocument,
): Promise<PolicyVersionSummary[]> {
  const rows = unwrap(
    await client
      .from('policy_versions')
      .select('version, summary, published_at')
      .eq('document', document)
      .order('version', { ascending: false })
      .limit(1000),
    'policy versions',
  );
  return rows.map((row) => ({ version: row.version, summary: row.summary, publishedAt: row.published_at }));
}

/** The version in force of each document. */
export async function currentPolicies(
  client: AppSupabaseClient,
): Promise<Record<PolicyDocument, PolicyVersionSummary | undefined>> {
  const rows = unwrap(
    await client.from('current_policies').select('document, version, summary, published_at'),
    'current policies',
  );
  const byDocument = new Map(rows.map((row) => [row.document, row]));
  return Object.fromEntries(
    POLICY_DOCUMENTS.map((document) => {
      const row = byDocument.get(document);
      return [
        document,
        row?.version
          ? { version: row.version, summary: row.summary ?? '', publishedAt: row.published_at ?? '' }
          : undefined,
      ];
    }),
  ) as Record<PolicyDocument, PolicyVersionSummary | undefined>;
}

/** Publishes a new version as the signed-in admin; answers its number. */
export async function publishPolicy(
  client: AppSupabaseClient,
  document: PolicyDocument,
  input: { body: string; summary: string },
): Promise<number> {
  const [row] = unwrap(
    await client
      .from('policy_versions')
      .insert({ document, body: input.body, summary: input.summary })
      .select('version'),
    'policy publish',
  );
  return row!.version;
}

export interface PendingPolicy extends PolicyVersionSummary {
  document: PolicyDocument;
}

/** The documents whose version in force the signed-in user has not accepted (of `among`). */
export async function pendingPolicies(
  client: AppSupabaseClient,
  among: readonly PolicyDocument[] = POLICY_DOCUMENTS,
): Promise<PendingPolicy[]> {
  const rows = unwrap(await client.rpc('pending_policies'), 'pending policies');
  return rows
    .filter((row) => isPolicyDocument(row.document) && among.includes(row.document))
    .map((row) => ({
      document: row.document as PolicyDocument,
      version: row.version,
      summary: row.summary,
      publishedAt: row.published_at,
    }));
}

/** Records that the signed-in user accepts these versions (their own client: row-level security). */
export async function acceptPolicies(
  client: AppSupabaseClient,
  userId: string,
  versions: readonly { document: PolicyDocument; version: number }[],
): Promise<void> {
  if (versions.length === 0) return;
  unwrap(
    await client.from('policy_acceptances').upsert(
      versions.map(({ document, version }) => ({ user_id: userId, document, version })),
      { onConflict: 'user_id,document,version', ignoreDuplicates: true },
    ),
    'policy acceptance',
  );
}

/** The page that asks for acceptance, coming back to `returnTo` after. */
export function policiesAcceptHref(returnTo: string, among: readonly PolicyDocument[]): string {
  return `${POLICIES_ACCEPT_PATH}?${new URLSearchParams({ for: among.join(','), returnTo })}`;
}

/**
 * Before a purchase or a listing change: when the signed-in user has a newer version of one of
 * `among` to accept, sends them to accept it first (and back to `returnTo`), in a loader or an
 * action alike.
 */
export async function requireAcceptedPolicies(
  context: Readonly<RouterContextProvider>,
  among: readonly PolicyDocument[],
  returnTo: string,
): Promise<void> {
  const pending = await pendingPolicies(context.get(supabaseContext), among);
  if (pending.length > 0) throw redirect(policiesAcceptHref(returnTo, among));
}
