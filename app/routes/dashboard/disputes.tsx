/**
 * /dashboard/disputes: every purchase for admins (row-level security gives admins all), searched
 * by agent name or buyer through a GET form, 25 per page, with Refund on completed purchases.
 */
import { Form, Link } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { SalesSection } from '~/components/dashboard/sales-list';
import { buttonClass } from '~/components/ui/button';
import { supabaseContext } from '~/context';
import { pageParam } from '~/lib/pagination';
import { errorMeta, pageMeta } from '~/lib/meta';
import { requireSection } from '~/server/guards.server';
import { refundPageState, salesListAction } from '~/server/refunds.server';
import { listSales } from '~/server/sales.server';
import type { Route } from './+types/disputes';

const MAX_SEARCH = 100;

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const params = args.url.searchParams;
  const search = (params.get('q') ?? '').trim().slice(0, MAX_SEARCH);
  const sales = await listSales(args.context.get(supabaseContext), {
    search: search || undefined,
    page: pageParam(params.get('page')),
  });
  return {
    sales,
    search,
    ...refundPageState(args),
  };
}

export const action = (args: Route.ActionArgs) => salesListAction(args);

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Disputes', 'Every purchase on the marketplace, with refunds.');

export default function DisputesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { sales, search, ...refundState } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Disputes</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          Every purchase on the marketplace, newest first. Refund a completed purchase with a reason.
        </p>
      </header>
      <Form method="get" role="search" aria-label="Search disputes" className="flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1">
          <label htmlFor="disputes-search" className="block text-sm font-medium">
            Search by agent or buyer
          </label>
          <input
            id="disputes-search"
            type="search"
            name="q"
            defaultValue={search}
            maxLength={MAX_SEARCH}
            className="mt-1 block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-950"
          />
        </div>
        <button type="submit" className={buttonClass('primary', 'md')}>
          Search
        </button>
        {search ? (
          <Link to="/dashboard/disputes" className={buttonClass('ghost', 'md')}>
            Clear
          </Link>
        ) : null}
      </Form>
      <SalesSection
        id="disputes-list"
        title={search ? `Purchases matching “${search}” (${sales.total})` : `All purchases (${sales.total})`}
        sales={sales}
        result={actionData}
        {...refundState}
        emptyMessage={search ? 'No purchases match this search.' : 'No purchases yet.'}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
