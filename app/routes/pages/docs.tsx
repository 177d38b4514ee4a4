import { GeneralErrorBoundary } from '~/components/error-boundary';
import { InfoPage, TEXT_LINK } from '~/components/info-page';
import { packageFields, type PackageField } from '~/lib/agent-package';
import { AGENT_MANIFEST_FILE, AGENT_PACKAGE_SCHEMA_PATH } from '~/lib/agent-package-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import type { Route } from './+types/docs';

/** The format's fields with their descriptions, read from the schema the upload checks with. */
export function loader() {
  return { packageFields: packageFields() };
}

const SECTIONS = [
  {
    heading: 'Getting started',
    body: (
      <p>
        {
          'Create a free account, browse the marketplace and add agents to your collection. Every purchased agent appears under Dashboard → My Collection, ready to download.'
        }
      </p>
    ),
  },
  {
    heading: 'Deploying an agent',
    body: (
      <p>
        {
          'An agent package is the file its seller uploaded: a JSON manifest in the agent package format (its instructions, tools, example conversations, configuration and README) or a ZIP archive that carries one as agent.json. My Collection downloads the latest version; the Changelog on the agent page lists every version with its release notes, and you can download earlier versions of agents you own.'
        }
      </p>
    ),
  },
  {
    heading: 'Selling agents',
    body: (
      <p>
        {
          'Choose Become a Seller, then create a listing from Dashboard → Upload Agent: name, description, category, price, features, a thumbnail and images, and the package file. Save it as a draft or publish it; only published agents appear in the marketplace. Each new package you upload is a new version with its own release notes.'
        }
      </p>
    ),
  },
  {
    heading: 'Accounts and security',
    body: (
      <p>
        {
          'Protect your account with a strong password and two-factor authentication from Profile & Settings → Security.'
        }
      </p>
    ),
  },
];

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Documentation', 'Guides for buying, deploying and selling AI agents on AgentMarket.');

/** The package format: where its schema is, how a ZIP carries it, and every field. */
function PackageFormat({ fields }: { fields: PackageField[] }) {
  return (
    <>
      <p>
        Every package follows one published format, version 1, described by the JSON Schema at{' '}
        <a href={AGENT_PACKAGE_SCHEMA_PATH} className={TEXT_LINK}>
          {AGENT_PACKAGE_SCHEMA_PATH}
        </a>
        . A JSON package is the manifest itself; a ZIP package carries it as <code>{AGENT_MANIFEST_FILE}</code> at the
        root of the archive, beside any other files. Name the format in the manifest with{' '}
        <code className="break-all">{`"$schema": "${AGENT_PACKAGE_SCHEMA_PATH}"`}</code> (or its full URL on this site)
        and an editor that reads JSON Schema checks the file as you write it.
      </p>
      <p>
        An upload that does not follow the format is refused with the field at fault, for example{' '}
        <q>tools[0].input_schema: expected an object</q>. Before buying, visitors see a package&apos;s tools, its model
        family and its first example conversation on the agent page; the instructions and the README come with the
        download.
      </p>
      <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
        {fields.map((field) => (
          <div key={field.field} className="flex flex-col gap-1 p-3 sm:flex-row sm:items-baseline sm:gap-4">
            <dt className="shrink-0 sm:w-64">
              <code className="font-mono text-sm font-semibold break-all text-slate-900 dark:text-slate-100">
                {field.field}
              </code>
              {field.required ? null : <span className="ml-2 text-xs">(optional)</span>}
            </dt>
            <dd className="text-sm">{field.description}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

export default function DocsPage({ loaderData }: Route.ComponentProps) {
  const sections = [
    ...SECTIONS.slice(0, 2),
    { heading: 'Agent package format', body: <PackageFormat fields={loaderData.packageFields} /> },
    ...SECTIONS.slice(2),
  ];
  return (
    <InfoPage
      title={'Documentation'}
      intro={'Guides for buying, deploying and selling AI agents on AgentMarket.'}
      sections={sections}
    />
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
