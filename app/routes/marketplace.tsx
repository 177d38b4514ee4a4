import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Search } from 'lucide-react';
import { data, redirect, useNavigation } from 'react-router';
import { FILTER_FORM_ID, FilterSidebar } from '~/components/marketplace/filter-sidebar';
import { NoResults, ResultList, SkeletonList, ViewToggle } from '~/components/marketplace/results';
import { Pager } from '~/components/ui/pager';
import { SearchCombobox } from '~/components/search/search-combobox';
import { LoadError } from '~/components/page-states';
import { connectionContext } from '~/context';
import type { Category } from '~/lib/categories';
import { keepAuthParams, pageSearch } from '~/lib/auth-modal';
import { errorMeta, pageMeta } from '~/lib/meta';
import { PAGE_SIZE, defaultSort, marketplaceHref, marketplaceSearch, sortOptions } from '~/lib/marketplace-params';
import { parseMarketplaceParams } from '~/lib/marketplace-params.server';
import { pageCount } from '~/lib/pagination';
import { listCategories } from '~/server/agents.server';
import { failIfInjected } from '~/server/faults.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { searchMarketplace } from '~/server/marketplace.server';
import type { Route } from './+types/marketplace';
import { publicSupabase } from '~/server/supabase.server';
import { pluralize } from '~/lib/plural';

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const supabase = publicSupabase(context.get(connectionContext));
  let categories: Category[] = [];
  try {
    // The valid category slugs come from the database; without them the filters still parse.
    categories = await listCategories(supabase);
    const params = parseMarketplaceParams(url.searchParams, categories);
    // One URL per view: invalid values and defaults are dropped from the address; the sign-in
    // dialog's parameters are not the page's and stay.
    const canonical = marketplaceSearch(params);
    if (pageSearch(url.search) !== canonical) throw redirect(keepAuthParams(`/marketplace${canonical}`, url.search));
    failIfInjected(request, 'catalogue');
    const result = await searchMarketplace(supabase, params, categories);
    // A page past the end goes to the last one (page 1 when nothing matches: the empty state).
    if (result.isPastEnd) {
      const last = pageCount(result.total, PAGE_SIZE);
      throw redirect(keepAuthParams(`/marketplace${marketplaceSearch({ ...params, page: last })}`, url.search));
    }
    return { params, categories, result, error: null };
  } catch (error) {
    // A failed read (logged by `unwrap`) shows 'Error Loading Marketplace' inside the page, with
    // its filters (those the categories read allows), and the 503 status, instead of the error
    // screen; anything else (the redirects too) goes on.
    const message = unavailableMessage(error);
    if (message === null) throw error;
    const params = parseMarketplaceParams(url.searchParams, categories);
    return data({ params, categories, result: null, error: message }, { status: 503 });
  }
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  const failed = errorMeta(error);
  if (failed) return failed;
  const total = loaderData?.result?.publishedTotal;
  return pageMeta(
    'Marketplace',
    `Discover ${total ?? 'hundreds of'} professional AI agents for marketing, sales, support, finance and more.`,
  );
}

export default function MarketplacePage({ loaderData }: Route.ComponentProps) {
  const { params, categories, result, error } = loaderData;
  const navigation = useNavigation();
  const isLoading = navigation.state === 'loading' && navigation.location.pathname === '/marketplace';

  return (
    <div className="container-page py-10">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">AI Agent Marketplace</h1>
      <p className="mt-2 text-lg text-slate-700 dark:text-slate-300">
        Discover {result?.publishedTotal ?? 0} professional AI agents ready to transform your business
      </p>

      <div className="mt-8 flex flex-col gap-4 sm:flex-row sm:items-center">
        <div role="search" aria-label="Search agents" className="relative flex-1">
          <label htmlFor="marketplace-search" className="sr-only">
            Search agents
          </label>
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500"
          />
          <SearchCombobox
            id="marketplace-search"
            name="q"
            form={FILTER_FORM_ID}
            defaultValue={params.q ?? ''}
            placeholder="Search for AI agents, categories, or creators..."
            className="h-11 w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 placeholder:text-slate-500 dark:border-slate-600 dark:bg-slate-900 dark:placeholder:text-slate-400"
          />
        </div>
        <div className="flex items-center gap-3">
          <label htmlFor="marketplace-sort" className="text-sm font-medium">
            Sort by
          </label>
          {/* The default order's value is empty: it stays "the default" when the search changes. */}
          <select
            id="marketplace-sort"
            name="sort"
            form={FILTER_FORM_ID}
            defaultValue={params.sort === defaultSort(params.q) ? '' : params.sort}
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
            className="h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-600 dark:bg-slate-900"
          >
            {sortOptions(params.q).map((option) => (
              <option key={option.value} value={option.value === defaultSort(params.q) ? '' : option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <ViewToggle params={params} />
        </div>
      </div>

      <div className="mt-8 flex flex-col gap-8 lg:flex-row">
        <FilterSidebar
          params={params}
          categories={categories}
          categoryCounts={result?.categoryCounts ?? {}}
          categoryTotal={result?.categoryTotal ?? 0}
        />
        <section aria-labelledby="results-heading" className="min-w-0 flex-1">
          {/* The cards' names are h3: the outline needs a level between them and the h1. */}
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          {error !== null ? (
            <LoadError
              title="Error Loading Marketplace"
              message={error}
              retryHref={`/marketplace${marketplaceSearch(params)}`}
            />
          ) : (
            <>
              <p className="mb-4 text-sm text-slate-700 dark:text-slate-300" role="status">
                Showing {result.agents.length} of {pluralize(result.total, 'agent')}
              </p>
              {isLoading ? (
                <SkeletonList view={params.view} />
              ) : result.agents.length === 0 ? (
                <NoResults
                  didYouMean={
                    result.didYouMean === null
                      ? null
                      : {
                          query: result.didYouMean,
                          href: marketplaceHref({ ...params, q: result.didYouMean, page: 1 }),
                        }
                  }
                />
              ) : (
                <ResultList agents={result.agents} view={params.view} />
              )}
              <Pager
                variant="numbered"
                label="Pagination"
                page={params.page}
                pageCount={pageCount(result.total, PAGE_SIZE)}
                hrefFor={(page) => marketplaceHref({ ...params, page })}
              />
            </>
          )}
        </section>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
