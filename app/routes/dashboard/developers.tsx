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
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  API_SCOPE_LABELS,
  API_SCOPES,
  API_TOKEN_MESSAGES,
  CreateApiTokenSchema,
  RevokeApiTokenSchema,
  type ApiScope,
} from '~/schemas/api';
import {
  addEndpointSchema,
  DeleteEndpointSchema,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
} from '~/schemas/webhooks';
import { createApiToken, listApiTokens, revokeApiToken, type ApiTokenRow } from '~/server/api-tokens.server';
import { env } from '~/server/env.server';
import {
  addWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  type WebhookEndpointRow,
} from '~/server/webhook-endpoints.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { publicOrigin } from '~/server/public-origin.server';
import type { Route } from './+types/developers';

const EXPIRY_LABELS = { '30': '30 days', '90': '90 days', '365': '1 year', never: 'Never' } as const;

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const client = args.context.get(supabaseContext);
  const [tokens, endpoints] = await Promise.all([
    listApiTokens(client, viewer.id, timeZone),
    listWebhookEndpoints(client, viewer.id, timeZone),
  ]);
  return { tokens, endpoints, origin: publicOrigin(args.request), allowHttp: env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES };
}

export async function action(args: Route.ActionArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const form = await args.request.formData();
  const intent = form.get('intent');
  if (intent === 'add-endpoint') {
    const submission = parseForm(form, addEndpointSchema(env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES));
    if (submission.status !== 'success') return formError(submission);
    const added = await addWebhookEndpoint(client, viewer.id, submission.value);
    if (added === 'too-many') return formError(submission, { message: WEBHOOK_MESSAGES.tooMany, status: 409 });
    // The secret is in this answer only, like a new token.
    return { ok: true, status: 'success' as const, endpointSecret: added.secret, endpointUrl: submission.value.url };
  }
  if (intent === 'delete-endpoint') {
    const submission = parseForm(form, DeleteEndpointSchema);
    if (submission.status !== 'success') return formError(submission);
    if (!(await deleteWebhookEndpoint(client, submission.value.endpointId))) {
      return formError(submission, { message: WEBHOOK_MESSAGES.notFound, status: 404 });
    }
    return redirectWithFlash(args.request, args.url.pathname, { kind: 'success', message: WEBHOOK_MESSAGES.deleted });
  }
  if (intent === 'revoke') {
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
  const { tokens, endpoints, origin, allowHttp } = loaderData;
  const created = actionData && 'token' in actionData && actionData.token ? actionData : null;
  const added =
    actionData && 'endpointSecret' in actionData && actionData.endpointSecret
      ? { endpointSecret: actionData.endpointSecret, endpointUrl: actionData.endpointUrl ?? '' }
      : null;
  const result = actionData && !('token' in actionData) && !('endpointSecret' in actionData) ? actionData : null;
  const webhookResult = result && fieldValue(result, 'intent') === 'add-endpoint' ? result : null;
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
      {created ? <NewToken name={created.tokenName ?? ''} token={created.token ?? ''} /> : null}
      <NewTokenForm key={created?.token ?? 'form'} result={webhookResult ? null : result} />
      <TokenList tokens={tokens} />
      <PublishFromCi origin={origin} />
      <Webhooks endpoints={endpoints} added={added} result={webhookResult} allowHttp={allowHttp} />
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
        <CheckboxGroup
          legend="Scopes"
          name="scopes"
          options={API_SCOPES.map((scope) => ({ value: scope, label: API_SCOPE_LABELS[scope] }))}
          error={fieldError(result, 'scopes')}
        />
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
      {/* Wrapped, not scrolled: nothing to reach with a keyboard, nothing hidden at 390 px. */}
      <pre className="rounded-xl bg-slate-900 p-4 text-sm break-all whitespace-pre-wrap text-slate-100">
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

function Webhooks({
  endpoints,
  added,
  result,
  allowHttp,
}: {
  endpoints: WebhookEndpointRow[];
  added: { endpointSecret: string; endpointUrl: string } | null;
  result: FormResult | null;
  allowHttp: boolean;
}) {
  const navigation = useNavigation();
  const notice = formNotice(result);
  return (
    <section aria-labelledby="webhooks" className="flex flex-col gap-3">
      <h2 id="webhooks" className="text-xl font-semibold">
        Webhooks
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        We POST each event you choose to your endpoint as JSON, signed per the{' '}
        <a href="https://www.standardwebhooks.com/" className="underline">
          Standard Webhooks
        </a>{' '}
        specification (the <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>{' '}
        headers, with the endpoint’s secret). An answer other than 2xx within 5 seconds is tried again, waiting longer
        each time, for a day.
      </p>
      {added ? (
        <div className="flex flex-col gap-2 rounded-xl border border-green-300 bg-green-50 p-4 text-green-950 dark:border-green-800 dark:bg-green-950 dark:text-green-100">
          <p className="font-semibold">{`Signing secret of ${added.endpointUrl}`}</p>
          <p className="text-sm">{WEBHOOK_MESSAGES.added}</p>
          <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all select-all dark:bg-slate-900">
            {added.endpointSecret}
          </code>
        </div>
      ) : null}
      {endpoints.length > 0 ? (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="flex flex-wrap items-center gap-3 p-4">
              <div className="min-w-0 flex-1">
                <p className="font-mono text-sm break-all">{endpoint.url}</p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{endpoint.events.join(', ')}</p>
                {endpoint.failingSince ? (
                  <p className="text-sm font-medium text-red-800 dark:text-red-300">{`Failing since ${endpoint.failingSince}`}</p>
                ) : null}
              </div>
              <Link to={`/dashboard/developers/webhooks/${endpoint.id}`} className={buttonClass('secondary', 'sm')}>
                Deliveries<span className="sr-only">{` of ${endpoint.url}`}</span>
              </Link>
              <Form method="post">
                <input type="hidden" name="intent" value="delete-endpoint" />
                <input type="hidden" name="endpointId" value={endpoint.id} />
                <SubmitButton
                  pending={navigation.formData?.get('endpointId') === endpoint.id}
                  variant="danger"
                  size="sm"
                >
                  Delete<span className="sr-only">{` ${endpoint.url}`}</span>
                </SubmitButton>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
      <Form method="post" key={added?.endpointSecret ?? 'endpoint'} className="flex max-w-xl flex-col gap-4">
        <h3 className="font-semibold">Add an endpoint</h3>
        {notice ? <FormMessage {...notice} /> : null}
        <input type="hidden" name="intent" value="add-endpoint" />
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          required
          maxLength={500}
          placeholder="https://example.com/webhooks/agentmarket"
          hint={allowHttp ? 'https:// (http:// too on this development server).' : 'An https:// address.'}
          error={fieldError(result, 'url')}
        />
        <CheckboxGroup
          legend="Events"
          name="events"
          options={WEBHOOK_EVENTS.map((event) => ({ value: event, label: WEBHOOK_EVENT_LABELS[event] }))}
          error={fieldError(result, 'events')}
        />
        <div>
          <SubmitButton pending={navigation.formData?.get('intent') === 'add-endpoint'}>Add endpoint</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/** Checkboxes sent under one name (scopes, events), each labelled with its value as code. */
function CheckboxGroup({
  legend,
  name,
  options,
  error,
}: {
  legend: string;
  name: string;
  options: { value: string; label: string }[];
  error: string | undefined;
}) {
  const errorId = `${name}-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="mt-2 flex items-center gap-2 text-sm">
          <input type="checkbox" name={name} value={option.value} className="size-4" />
          <span>
            {option.label} <code className="text-xs">{option.value}</code>
          </span>
        </label>
      ))}
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
