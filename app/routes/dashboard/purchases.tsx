import { data, redirect } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ContactSellerDialog } from '~/components/dashboard/contact-seller-dialog';
import { PurchaseFilters, usePurchasesPending } from '~/components/dashboard/purchase-filters';
import { EmptyPurchases, PurchaseItem } from '~/components/dashboard/purchase-item';
import { LoadError } from '~/components/page-states';
import { Pager } from '~/components/ui/pager';
import { connectionContext, supabaseContext } from '~/context';
import type { Category } from '~/lib/categories';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatMoney } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import {
  PURCHASES_PATH,
  hasActiveFilters,
  purchaseCountLabel,
  purchasesHref,
  purchasesSearch,
} from '~/lib/purchase-history';
import { parsePurchaseHistoryParams } from '~/lib/purchase-history-params.server';
import { listCategories } from '~/server/agents.server';
import { failIfInjected } from '~/server/faults.server';
import { requireSection } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { loadPurchaseHistory } from '~/server/purchase-history.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/purchases';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { pageCount } from '~/lib/pagination';

export async function loader(args: Route.LoaderArgs) {
  const { viewer } = requireSection(args);
  const { request, context, url } = args;
  const buyerName = viewer.username;
  let categories: Category[] = [];
  try {
    categories = await listCategories(publicSupabase(context.get(connectionContext)));
    const params = parsePurchaseHistoryParams(url.searchParams, categories);
    failIfInjected(request, 'purchases');
    const timeZone = timeZoneFromCookieHeader(request.headers.get('cookie'));
    const history = await loadPurchaseHistory(context.get(supabaseContext), viewer.id, params, categories, timeZone);
    // One URL per view: invalid values, empty fields and an unknown `contact` leave the address;
    // a malformed page is the first page, one past the end the last (as on the marketplace).
    const shown = { ...params, page: history.page, contact: history.contact ? params.contact : null };
    const canonical = purchasesSearch(shown);
    if (url.search !== canonical) throw redirect(`${PURCHASES_PATH}${canonical}`);
    return { params: shown, history, buyerName, error: null };
  } catch (error) {
    // A failed read shows 'Error Loading Purchase History' inside the page (503), with its
    // filters; anything else (the redirect too) goes on.
    const message = unavailableMessage(error);
    if (message === null) throw error;
    const params = { ...parsePurchaseHistoryParams(url.searchParams, categories), contact: null };
    return data({ params, history: null, buyerName, error: message }, { status: 503 });
  }
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ??
  pageMeta('Purchase History', 'Every AgentMarket purchase with its status, amount, downloads and seller contact.');

export default function PurchasesPage({ loaderData }: Route.ComponentProps) {
  const { params, history, buyerName, error } = loaderData;
  const pending = usePurchasesPending();
  const listHref = purchasesHref({ ...params, contact: null });
  const filtered = hasActiveFilters(params);

  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-3xl font-bold">Purchase History</h1>
        {history ? (
          <p className="mt-1 text-slate-700 dark:text-slate-300" data-testid="purchase-summary">
            {purchaseCountLabel(history.count)} • Total spent: {formatMoney(history.totalSpent)}
          </p>
        ) : null}
      </header>
      <PurchaseFilters params={params} categories={history?.categories ?? []} />
      <div aria-busy={pending || undefined}>
        {error !== null || history === null ? (
          <LoadError title="Error Loading Purchase History" message={error ?? ''} retryHref={listHref} />
        ) : history.rows.length === 0 ? (
          <EmptyPurchases filtered={filtered} />
        ) : (
          <ul aria-label="Purchases" className="flex flex-col gap-4">
            {history.rows.map((purchase) => (
              <PurchaseItem
                key={purchase.id}
                purchase={purchase}
                contactHref={purchasesHref({ ...params, contact: purchase.id })}
                returnTo={listHref}
              />
            ))}
          </ul>
        )}
        {history ? (
          <Pager
            variant="numbered"
            label="Pagination"
            page={history.page}
            pageCount={pageCount(history.matching, PAGE_SIZE)}
            hrefFor={(page) => purchasesHref({ ...params, page, contact: null })}
          />
        ) : null}
      </div>
      {history?.contact ? (
        <ContactSellerDialog contact={history.contact} buyerName={buyerName} closeHref={listHref} />
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
