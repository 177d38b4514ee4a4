import { Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { TEXT_LINK } from '~/components/info-page';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { formatDate } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { POLICY_DOCUMENTS, POLICY_PATHS, POLICY_TITLES } from '~/lib/policies';
import { requireSection } from '~/server/guards.server';
import { currentPolicies } from '~/server/policies.server';
import type { Route } from './+types/policies';

/**
 * Policies (admins, `manage_policies`; ADR 069): the Terms of Service, the Privacy Policy and the
 * Seller Policy, each with its version in force, and the way to publish a new one.
 */
export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  return { current: await currentPolicies(args.context.get(supabaseContext)) };
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Policies', 'The Terms of Service, the Privacy Policy and the Seller Policy.');

export default function PoliciesPage({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Policies</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          The documents buyers and sellers accept. Each publication is a new version; earlier versions stay readable.
          After a new version, buyers accept it before their next purchase and sellers before their next listing change.
        </p>
      </header>
      <ul className="grid gap-4 lg:grid-cols-3">
        {POLICY_DOCUMENTS.map((document) => {
          const current = loaderData.current[document];
          return (
            <li
              key={document}
              className="flex flex-col gap-3 rounded-xl border border-slate-200 p-5 dark:border-slate-800"
            >
              <h2 className="text-lg font-semibold">{POLICY_TITLES[document]}</h2>
              {current ? (
                <p className="text-sm text-slate-700 dark:text-slate-300">
                  Version {current.version}, published {formatDate(current.publishedAt)}: {current.summary}
                </p>
              ) : (
                <p className="text-sm text-slate-700 dark:text-slate-300">Not published yet.</p>
              )}
              <div className="mt-auto flex flex-wrap items-center gap-3">
                <Link to={`/dashboard/policies/${document}`} className={buttonClass('secondary', 'sm')}>
                  Edit {POLICY_TITLES[document]}
                </Link>
                <Link to={POLICY_PATHS[document]} className={`${TEXT_LINK} text-sm`}>
                  Read it
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
