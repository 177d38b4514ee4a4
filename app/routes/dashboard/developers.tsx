/**
 * /dashboard/developers (sellers and admins, `manage_products`; ADR 074): personal API tokens for
 * the seller API (name, scopes, expiry; shown once, listed with their last use, revocable at once)
 * and how to publish a version from CI. A new token is the action's answer (never a URL or a
 * cookie), so it works the same with and without JavaScript.
 */
import { KeyRound } from 'lucide-react';
import { Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { buttonClass } from '~/components/ui/button';
import { Field, FormMessage, Labelled } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { fieldError, formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  API_SCOPE_LABELS,
  API_SCOPES,
  API_TOKEN_MESSAGES,
  CreateApiTokenSchema,
  RevokeApiTokenSchema,
  type ApiScope,
} from '~/schemas/api';
import { createApiToken, listApiTokens, revokeApiToken, type ApiTokenRow } from '~/server/api-tokens.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { publicOrigin } from '~/server/public-origin.server';
import type { Route } from './+types/developers';

const EXPIRY_LABELS = { '30': '30 days', '90': '90 days', '365': '1 year', never: 'Never' } as const;

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const tokens = await listApiTokens(args.context.get(supabaseContext), viewer.id, timeZone);
  return { tokens, origin: publicOrigin(args.request) };
}

export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const form = await args.request.formData();
  if (form.get('intent') === 'revoke') {
    const submission = parseForm(form, RevokeApiTokenSchema);
    if (submission.status !== 'success') return formError(submission);
    if (!(await revokeApiToken(client, submission.value.tokenId))) {
      return formError(submission, { message: API_TOKEN_MESSAGES.notFound, status: 404 });
    }
    return redirectWithFlash(args.request, args.url.pathname, { kind: 'success', message: API_TOKEN_MESSAGES.revoked });
  }
  const submission = parseForm(form, CreateApiTokenSchema);
  if (submission.status !== 'success') return formError(submission);
  const { name, scopes, expires } = submission.value;
  const created = await createApiToken(client, viewer.id, {
    name,
    scopes,
    expiresInDays: expires === 'never' ? null : Number(expires),
  });
  if (created === 'too-many') return formError(submission, { message: API_TOKEN_MESSAGES.tooMany, status: 409 });
  // The token is in this answer only: the page shows it once, and it is never stored.
  return { ok: true, status: 'success' as const, token: created.token, tokenName: name };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Developers', 'API tokens for the AgentMarket API, and publishing from CI.');

export default function DevelopersPage({ loaderData, actionData }: Route.ComponentProps) {
  const { tokens, origin } = loaderData;
  const created = actionData && 'token' in actionData ? actionData : null;
  const result = actionData && !('token' in actionData) ? actionData : null;
  return (
    <div className="flex flex-col gap-8">
      <header>
        <h1 className="text-3xl font-bold">Developers</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Publish new versions from CI and read your sales with the{' '}
          <Link to="/api" className="underline">
            AgentMarket API
          </Link>
          . A token acts as you: keep it secret, and revoke it if it leaks.
        </p>
      </header>
      {created ? <NewToken name={created.tokenName} token={created.token} /> : null}
      <NewTokenForm key={created?.token ?? 'form'} result={result} />
      <TokenList tokens={tokens} />
      <PublishFromCi origin={origin} />
    </div>
  );
}

function NewToken({ name, token }: { name: string; token: string }) {
  return (
    <section
      aria-labelledby="new-token"
      className="flex flex-col gap-2 rounded-xl border border-green-300 bg-green-50 p-4 text-green-950 dark:border-green-800 dark:bg-green-950 dark:text-green-100"
    >
      <h2 id="new-token" className="font-semibold">
        {`Your new token “${name}”`}
      </h2>
      <p className="text-sm">{API_TOKEN_MESSAGES.created}</p>
      <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all select-all dark:bg-slate-900">
        {token}
      </code>
    </section>
  );
}

function NewTokenForm({ result }: { result: FormResult | null | undefined }) {
  const navigation = useNavigation();
  const busy = navigation.formData?.get('intent') === 'create';
  const notice = formNotice(result);
  return (
    <section aria-labelledby="create-token" className="flex flex-col gap-3">
      <h2 id="create-token" className="text-xl font-semibold">
        Create a token
      </h2>
      <Form method="post" className="flex max-w-xl flex-col gap-4">
        {notice ? <FormMessage {...notice} /> : null}
        <input type="hidden" name="intent" value="create" />
        <Field
          label="Name"
          name="name"
          required
          maxLength={60}
          placeholder="GitHub Actions"
          hint="What the token is for, to tell your tokens apart."
          error={fieldError(result, 'name')}
        />
        <fieldset aria-describedby={fieldError(result, 'scopes') ? 'scopes-error' : undefined}>
          <legend className="text-sm font-medium">Scopes</legend>
          {API_SCOPES.map((scope) => (
            <label key={scope} className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="scopes" value={scope} className="size-4" />
              <span>
                {API_SCOPE_LABELS[scope]} <code className="text-xs">{scope}</code>
              </span>
            </label>
          ))}
          {fieldError(result, 'scopes') ? (
            <p id="scopes-error" className="mt-1 text-sm text-red-700 dark:text-red-300">
              {fieldError(result, 'scopes')}
            </p>
          ) : null}
        </fieldset>
        <Labelled label="Expires" error={fieldError(result, 'expires')}>
          {(links) => (
            <select
              {...links}
              name="expires"
              defaultValue="90"
              className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-950"
            >
              {Object.entries(EXPIRY_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Labelled>
        <div>
          <SubmitButton pending={busy}>
            <KeyRound aria-hidden="true" className="size-4" /> Create token
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function TokenList({ tokens }: { tokens: ApiTokenRow[] }) {
  const navigation = useNavigation();
  return (
    <section aria-labelledby="your-tokens" className="flex flex-col gap-3">
      <h2 id="your-tokens" className="text-xl font-semibold">
        {`Your tokens (${tokens.length})`}
      </h2>
      {tokens.length === 0 ? (
        <p className="rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300">
          No tokens yet.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {tokens.map((token) => (
            <li key={token.id} className="flex flex-wrap items-center gap-3 p-4">
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{token.name}</p>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  <code className="font-mono">{`${token.prefix}…`}</code> ·{' '}
                  {token.scopes.map((scope: ApiScope) => scope).join(', ')}
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  {[
                    `Created ${token.createdOn}`,
                    token.lastUsedOn ? `last used ${token.lastUsedOn}` : 'never used',
                    token.expiresOn ? `${token.expired ? 'expired' : 'expires'} ${token.expiresOn}` : 'no expiry',
                  ].join(' · ')}
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="revoke" />
                <input type="hidden" name="tokenId" value={token.id} />
                <SubmitButton pending={navigation.formData?.get('tokenId') === token.id} variant="danger" size="sm">
                  Revoke<span className="sr-only">{` ${token.name}`}</span>
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The three commands that publish a version from CI. */
function PublishFromCi({ origin }: { origin: string }) {
  const commands = [
    '# 1. In your CI secrets: a token with the scope listings:write',
    'export AGENTMARKET_TOKEN=am_pat_…',
    '# 2. Your package: a ZIP archive (or one JSON file) with agent.json',
    'zip -r agent.zip agent/',
    '# 3. Publish it as a new version of your agent (its id is in its page’s address)',
    `curl -fsS -H "Authorization: Bearer $AGENTMARKET_TOKEN" -F version=1.2.0 -F notes=@CHANGELOG.md -F package=@agent.zip ${origin}/api/v1/agents/<agent-id>/versions`,
  ].join('\n');
  return (
    <section aria-labelledby="publish-from-ci" className="flex flex-col gap-3">
      <h2 id="publish-from-ci" className="text-xl font-semibold">
        Publish from CI in three commands
      </h2>
      <pre className="overflow-x-auto rounded-xl bg-slate-900 p-4 text-sm text-slate-100">
        <code>{commands}</code>
      </pre>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        The version must be higher than the latest, with release notes; the package is checked as on the Edit page.
        Buyers of the agent are told of the update. Every endpoint is in the{' '}
        <a href="/api/v1/openapi.json" className="underline">
          OpenAPI document
        </a>{' '}
        and on the{' '}
        <Link to="/api" className={buttonClass('ghost', 'sm', 'px-0 underline')}>
          API page
        </Link>
        .
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
