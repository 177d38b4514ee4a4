/**
 * A seller's storefront, `/sellers/{username}` (issue #12 "Storefronts"): who they are (avatar
 * letter, display name, pitch, member since), their figures (published agents, completed sales,
 * average rating weighted by reviews) and their published agents with the marketplace's cards
 * and paging. Everything is read as everyone sees it (the anonymous client: `public_profiles`
 * applies the seller's privacy, published agents only) and shared for a few seconds. Unknown
 * usernames and users who are not sellers are a 404.
 */
import { PackageOpen, ShoppingBag, Star } from 'lucide-react';
import { redirect } from 'react-router';
import { Breadcrumb } from '~/components/breadcrumb';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Pagination, ResultList } from '~/components/marketplace/results';
import { EmptyState } from '~/components/page-states';
import { connectionContext } from '~/context';
import { formatRating } from '~/lib/agents';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { isUsernameLike, parseStorefrontPage, storefrontHref } from '~/lib/sellers';
import { notFound } from '~/server/http-errors.server';
import { getStorefront } from '~/server/sellers.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/seller';

const SELLER_NOT_FOUND = {
  title: 'Seller not found',
  message: 'There is no seller with this name. They may have changed it, or the link may be mistyped.',
};

export async function loader({ params, url, request, context }: Route.LoaderArgs) {
  const { username } = params;
  if (!isUsernameLike(username)) notFound(SELLER_NOT_FOUND);
  const page = parseStorefrontPage(url.searchParams.get('page'));
  if (page === null) throw redirect(storefrontHref(username));
  const storefront = await getStorefront(publicSupabase(context.get(connectionContext)), username, page);
  if (!storefront) notFound(SELLER_NOT_FOUND);
  // Past the last page: back to the first, as the marketplace does.
  if (page > 1 && storefront.agents.length === 0) throw redirect(storefrontHref(username));
  const timeZone = timeZoneFromCookieHeader(request.headers.get('cookie'));
  return { ...storefront, page, memberSince: formatDate(storefront.seller.memberSince, timeZone) };
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  const failed = errorMeta(error);
  if (failed || !loaderData) return failed ?? pageMeta('Seller', 'A seller on AgentMarket.');
  const { seller, figures } = loaderData;
  return pageMeta(
    `${seller.name} (${seller.username})`,
    seller.pitch ?? `${figures.agentCount} AI agents by ${seller.name} on AgentMarket.`,
  );
}

export default function SellerPage({ loaderData }: Route.ComponentProps) {
  const { seller, figures, agents, page, memberSince } = loaderData;
  const rating = formatRating(figures.avgRating, figures.reviewCount);
  return (
    <div className="container-page flex flex-col gap-10 py-10">
      <Breadcrumb trail={[{ to: '/marketplace', label: 'Marketplace' }]} current={seller.name} />

      <header className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <span
          aria-hidden="true"
          className="flex size-20 shrink-0 items-center justify-center rounded-full bg-brand-600 text-3xl font-semibold text-white uppercase"
        >
          {seller.name.charAt(0)}
        </span>
        <div className="flex min-w-0 flex-col gap-2">
          <h1 className="text-3xl font-bold break-words sm:text-4xl">{seller.name}</h1>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {seller.name !== seller.username ? <span>@{seller.username} · </span> : null}
            Member since {memberSince}
          </p>
          {seller.pitch ? (
            <p className="max-w-3xl whitespace-pre-line text-slate-800 dark:text-slate-200">{seller.pitch}</p>
          ) : null}
        </div>
      </header>

      <section aria-labelledby="seller-figures-title">
        <h2 id="seller-figures-title" className="sr-only">
          Figures
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3">
          <Figure icon={<PackageOpen aria-hidden="true" className="size-5" />} label="Agents">
            {figures.agentCount.toLocaleString('en-US')}
          </Figure>
          <Figure icon={<ShoppingBag aria-hidden="true" className="size-5" />} label="Total sales">
            {figures.totalSales.toLocaleString('en-US')}
          </Figure>
          <Figure icon={<Star aria-hidden="true" className="size-5" />} label="Average rating">
            {figures.reviewCount > 0 ? (
              <>
                {rating}{' '}
                <span className="text-sm font-normal text-slate-700 dark:text-slate-300">
                  ({figures.reviewCount.toLocaleString('en-US')} {figures.reviewCount === 1 ? 'review' : 'reviews'})
                </span>
              </>
            ) : (
              <span className="text-base font-normal">No reviews yet</span>
            )}
          </Figure>
        </dl>
      </section>

      <section aria-labelledby="seller-agents-title" className="flex flex-col gap-4">
        <h2 id="seller-agents-title" className="text-2xl font-semibold">
          Agents by {seller.name}
        </h2>
        {agents.length === 0 ? (
          <EmptyState
            icon={<PackageOpen aria-hidden="true" className="size-10" />}
            title="No agents yet"
            message={`${seller.name} has not published any agents yet.`}
          />
        ) : (
          <ResultList agents={agents} view="grid" />
        )}
        <Pagination page={page} total={figures.agentCount} hrefFor={(n) => storefrontHref(seller.username, n)} />
      </section>
    </div>
  );
}

function Figure({ icon, label, children }: { icon: React.ReactNode; label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl border border-slate-200 p-5 dark:border-slate-700">
      <dt className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
        {icon}
        {label}
      </dt>
      <dd className="text-2xl font-bold">{children}</dd>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
