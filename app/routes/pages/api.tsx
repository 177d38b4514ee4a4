import { GeneralErrorBoundary } from '~/components/error-boundary';
import { InfoPage, TEXT_LINK } from '~/components/info-page';
import { pageMeta } from '~/lib/meta';
import { apiOperations, type ApiOperation } from '~/server/api/openapi.server';
import type { Route } from './+types/api';

const SECTIONS = [
  {
    heading: 'Data API',
    body: (
      <p>
        {
          'The catalogue of published agents is served by a PostgREST-compatible Data API at /rest/v1, the same one the app uses. Read the agents_with_stats view with your anon key; row-level security decides what each caller may see.'
        }
      </p>
    ),
  },
  {
    heading: 'Authentication',
    body: (
      <p>
        {
          'Sign in through /auth/v1 to obtain an access token, then send it as a Bearer token to read your own purchases and collection.'
        }
      </p>
    ),
  },
  {
    heading: 'Rate limits',
    body: <p>{'Be considerate: cache responses and page through results with limit and offset.'}</p>,
  },
  {
    heading: 'Seller API and licence keys',
    body: (
      <>
        <p>
          The JSON API at /api/v1 checks buyers’ licence keys (public) and lets sellers manage listings, publish
          versions and read sales with a personal API token, created in the dashboard under Developers and sent as{' '}
          <code>Authorization: Bearer am_pat_…</code>. Errors always have the shape{' '}
          <code>{'{ "error": { "code", "message", "fields" } }'}</code> with their HTTP status; lists page with{' '}
          <code>cursor</code> and <code>limit</code>.
        </p>
        <p>
          The reference below is generated from the{' '}
          <a href="/api/v1/openapi.json" className={TEXT_LINK}>
            OpenAPI 3.1 document
          </a>
          , which any OpenAPI tool can read.
        </p>
      </>
    ),
  },
];

export function loader() {
  return { operations: apiOperations() };
}

export const meta = () => pageMeta('API', 'Programmatic access to the marketplace catalogue.');

export default function ApiPage({ loaderData }: Route.ComponentProps) {
  return (
    <InfoPage title={'API'} intro={'Programmatic access to the marketplace catalogue.'} sections={SECTIONS}>
      <section aria-labelledby="api-reference" className="mt-10">
        <h2 id="api-reference" className="text-2xl font-semibold">
          Reference
        </h2>
        {loaderData.operations.map((operation) => (
          <Operation key={`${operation.method} ${operation.path}`} operation={operation} />
        ))}
      </section>
    </InfoPage>
  );
}

function Operation({ operation }: { operation: ApiOperation }) {
  return (
    <section className="mt-6 rounded-xl border border-slate-200 p-4 dark:border-slate-700">
      <h3 className="flex flex-wrap items-baseline gap-2 font-semibold">
        <span className="rounded bg-slate-900 px-2 py-0.5 font-mono text-xs text-white dark:bg-slate-100 dark:text-slate-900">
          {operation.method}
        </span>
        <code className="font-mono text-sm break-all">{operation.path}</code>
        <span>{operation.summary}</span>
      </h3>
      {operation.description
        ? operation.description.split('\n\n').map((paragraph) => (
            <p key={paragraph} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
              {paragraph}
            </p>
          ))
        : null}
      {operation.params.length > 0 ? (
        <Fields
          title="Parameters"
          rows={operation.params.map((param) => ({
            name: param.name,
            detail: `${param.in}${param.required ? ', required' : ''}`,
            description: param.description,
          }))}
        />
      ) : null}
      {operation.body ? (
        <Fields
          title={`Body (${operation.body.contentTypes.join(' or ')})`}
          rows={operation.body.fields.map((field) => ({
            name: field.name,
            detail: `${field.type}${field.required ? ', required' : ''}`,
            description: field.description,
          }))}
        />
      ) : null}
      <Fields
        title="Responses"
        rows={operation.responses.map((response) => ({
          name: response.status,
          detail: '',
          description: response.description,
        }))}
      />
    </section>
  );
}

function Fields({ title, rows }: { title: string; rows: { name: string; detail: string; description: string }[] }) {
  return (
    <div className="mt-3">
      <h4 className="text-sm font-semibold">{title}</h4>
      <dl className="mt-1 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        {rows.map((row) => (
          <div key={row.name} className="contents">
            <dt className="font-mono">
              {row.name}
              {row.detail ? <span className="text-slate-600 dark:text-slate-400">{` (${row.detail})`}</span> : null}
            </dt>
            <dd className="text-slate-700 dark:text-slate-300">{row.description}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
