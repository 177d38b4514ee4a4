import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { TEXT_LINK } from '~/components/info-page';
import { MarkdownDocument } from '~/components/policies/markdown-document';
import { PolicyVersionList } from '~/components/policies/version-list';
import { connectionContext } from '~/context';
import { formatDate } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { pageNumber } from '~/lib/pagination';
import { POLICY_DOCUMENTS, POLICY_INTROS, POLICY_PATHS, POLICY_TITLES, type PolicyDocument } from '~/lib/policies';
import { notFound } from '~/server/http-errors.server';
import { listPolicyVersions, readPolicy } from '~/server/policies.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/policy';

/**
 * `/terms`, `/privacy` and `/seller-policy` (ADR 069): the version in force of the document, its
 * number and date, and every earlier version, each readable at `?version=N`.
 */
export async function loader({ url, context }: Route.LoaderArgs) {
  const document = POLICY_DOCUMENTS.find((name) => POLICY_PATHS[name] === url.pathname);
  if (!document) notFound();
  const asked = url.searchParams.get('version');
  const version = asked === null ? undefined : (pageNumber(asked) ?? notFound({ title: 'Version not found' }));
  const client = publicSupabase(context.get(connectionContext));
  const [policy, versions] = await Promise.all([
    readPolicy(client, document, version),
    listPolicyVersions(client, document),
  ]);
  const current = versions[0]!.version;
  return { document, policy, versions, current };
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  const failed = errorMeta(error);
  if (failed || !loaderData) return failed ?? pageMeta('Policies', 'The policies of AgentMarket.');
  return pageMeta(
    POLICY_TITLES[loaderData.document as PolicyDocument],
    POLICY_INTROS[loaderData.document as PolicyDocument],
  );
};

export default function PolicyPage({ loaderData }: Route.ComponentProps) {
  const { policy, versions, current } = loaderData;
  const document = loaderData.document as PolicyDocument;
  const earlier = policy.version !== current;
  return (
    <article className="container-page max-w-3xl py-12">
      <h1 className="text-4xl font-bold tracking-tight">{POLICY_TITLES[document]}</h1>
      <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">{POLICY_INTROS[document]}</p>
      <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
        Version {policy.version}, published {formatDate(policy.publishedAt)}.
      </p>
      {earlier ? (
        <p
          role="note"
          className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          This is an earlier version, no longer in force.{' '}
          <Link to={POLICY_PATHS[document]} className={TEXT_LINK}>
            Read version {current}, in force now
          </Link>
          .
        </p>
      ) : null}
      <div className="mt-6">
        <MarkdownDocument html={policy.html} />
      </div>
      {versions.length > 1 ? (
        <section
          aria-labelledby="policy-versions"
          className="mt-12 border-t border-slate-200 pt-6 dark:border-slate-800"
        >
          <h2 id="policy-versions" className="text-xl font-semibold">
            All versions
          </h2>
          <PolicyVersionList document={document} versions={versions} current={current} shown={policy.version} />
        </section>
      ) : null}
    </article>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
