/**
 * A seller's storefront, `/sellers/{username}`: who they are (avatar
 * letter, display name, pitch, member since), their figures (published agents, completed sales,
 * average rating weighted by reviews) and their published agents with the marketplace's cards
 * and paging. The profile is read with the viewer's client (`public_profiles` applies the
 * seller's privacy); the figures and agents as everyone sees them (published agents only, shared
 * for a few seconds). Unknown usernames and users who are not sellers are a 404. A seller whose
 * profile this viewer may not see (private, or members only and signed out) gets a 403 page that
 * says so, with Sign In for members-only profiles; their agents stay on the marketplace.
 */
import { Lock, PackageOpen, ShoppingBag, Star } from 'lucide-react';
import { data, Link, redirect } from 'react-router';
import { SellerContactLinks } from '~/components/agents/seller-contact';
import { Breadcrumb } from '~/components/breadcrumb';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { ResultList } from '~/components/marketplace/results';
import { Pager } from '~/components/ui/pager';
import { EmptyState } from '~/components/page-states';
import { Avatar } from '~/components/ui/avatar';
import { buttonClass } from '~/components/ui/button';
import { connectionContext, supabaseContext } from '~/context';
import { signInHref } from '~/lib/auth-modal';
import { NO_REVIEWS_YET, formatRating } from '~/lib/agents';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formatDate } from '~/lib/dashboard-format';
import { errorMeta, pageMeta } from '~/lib/meta';
import { PAGE_SIZE } from '~/lib/marketplace-params';
import { pageCount, pageNumber } from '~/lib/pagination';
import { HIDDEN_PROFILE_MESSAGE, isUsernameLike, storefrontHref } from '~/lib/sellers';
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
  const pageValue = url.searchParams.get('page');
  const page = pageValue === null ? 1 : pageNumber(pageValue);
  if (page === null) throw redirect(storefrontHref(username));
  const storefront = await getStorefront(
    { publicClient: publicSupabase(context.get(connectionContext)), viewerClient: context.get(supabaseContext) },
    username,
    page,
  );
  if (!storefront) notFound(SELLER_NOT_FOUND);
  if (storefront.kind === 'hidden') {
    const path = storefrontHref(storefront.username);
    return data(
      {
        ...storefront,
        signInHref:
          storefront.visibility === 'members'
            ? signInHref({ over: { pathname: path, search: '' }, returnTo: path })
            : null,
      },
      { status: 403 },
    );
  }
  // Past the last page: back to the first, as the marketplace does.
  if (page > 1 && storefront.agents.length === 0) throw redirect(storefrontHref(username));
  const timeZone = timeZoneFromCookieHeader(request.headers.get('cookie'));
  return { ...storefront, page, memberSince: formatDate(storefront.seller.memberSince, timeZone) };
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  const failed = errorMeta(error);
  if (failed || !loaderData) return failed ?? pageMeta('Seller', 'A seller on AgentMarket.');
  if (loaderData.kind === 'hidden') {
    const hidden = HIDDEN_PROFILE_MESSAGE[loaderData.visibility];
    return [...pageMeta(hidden.title, hidden.message), { name: 'robots', content: 'noindex' }];
  }
  const { seller, figures } = loaderData;
  return pageMeta(
    `${seller.name} (${seller.username})`,
    seller.pitch ?? `${figures.agentCount} AI agents by ${seller.name} on AgentMarket.`,
  );
}

export default function SellerPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'hidden') return <HiddenProfile {...loaderData} />;
  const { seller, figures, agents, page, memberSince } = loaderData;
  const rating = formatRating(figures.avgRating, figures.reviewCount);
  return (
    <div className="container-page flex flex-col gap-10 py-10">
      <Breadcrumb trail={[{ to: '/marketplace', label: 'Marketplace' }]} current={seller.name} />

      <header className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <Avatar name={seller.name} url={seller.pictureUrl} size="xl" />
        <div className="flex min-w-0 flex-col gap-2">
          <h1 className="text-3xl font-bold break-words sm:text-4xl">{seller.name}</h1>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {seller.name !== seller.username ? <span>@{seller.username} · </span> : null}
            Member since {memberSince}
          </p>
          {seller.pitch ? (
            <p className="max-w-3xl whitespace-pre-line text-slate-800 dark:text-slate-200">{seller.pitch}</p>
          ) : null}
          <SellerContactLinks email={seller.email} phone={seller.phone} label={`Contact ${seller.name}`} />
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
              <span className="text-base font-normal">{NO_REVIEWS_YET}</span>
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
        <Pager
          variant="numbered"
          label="Pagination"
          page={page}
          pageCount={pageCount(figures.agentCount, PAGE_SIZE)}
          hrefFor={(n) => storefrontHref(seller.username, n)}
        />
      </section>
    </div>
  );
}

/** A seller whose profile this viewer may not see: the username, why, and Sign In when that helps. */
function HiddenProfile({
  username,
  visibility,
  signInHref,
}: {
  username: string;
  visibility: 'members' | 'private';
  signInHref: string | null;
}) {
  const { title, message } = HIDDEN_PROFILE_MESSAGE[visibility];
  return (
    <div className="container-page flex flex-col gap-8 py-10">
      <Breadcrumb trail={[{ to: '/marketplace', label: 'Marketplace' }]} current={username} />
      <section
        aria-labelledby="hidden-profile-title"
        className="mx-auto flex max-w-xl flex-col items-center gap-4 rounded-2xl border border-slate-200 px-6 py-12 text-center dark:border-slate-700"
      >
        <Lock aria-hidden="true" className="size-10 text-slate-600 dark:text-slate-400" />
        <h1 id="hidden-profile-title" className="text-2xl font-bold">
          {title}
        </h1>
        <p className="text-slate-700 dark:text-slate-300">
          <span className="font-medium">@{username}</span>: {message}
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          {signInHref ? (
            <Link to={signInHref} className={buttonClass('primary')}>
              Sign In
            </Link>
          ) : null}
          <Link to="/marketplace" className={buttonClass('secondary')}>
            Browse the marketplace
          </Link>
        </div>
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
