import { agentArtworkPath } from '~/lib/agent-artwork';
import { CheckCircle2, MessageSquare, ShieldAlert } from 'lucide-react';
import { data, href, isRouteErrorResponse, Link, Outlet, type ShouldRevalidateFunctionArgs } from 'react-router';
import { AgentChangelog } from '~/components/agents/agent-changelog';
import { AgentGallery } from '~/components/agents/agent-gallery';
import { AgentInside } from '~/components/agents/agent-inside';
import { AgentPurchasePanel } from '~/components/agents/agent-purchase-panel';
import { AgentRatingSummary } from '~/components/agents/agent-rating-summary';
import { AgentReviews } from '~/components/agents/agent-reviews';
import { SellerContactLinks } from '~/components/agents/seller-contact';
import { SellerLink } from '~/components/agents/seller-link';
import { Breadcrumb } from '~/components/breadcrumb';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { Avatar } from '~/components/ui/avatar';
import { connectionContext, supabaseContext, viewerContext } from '~/context';
import { agentCallToAction, metaDescription, ratingDistribution, REVIEWS_PAGE_PARAM } from '~/lib/agent-detail';
import { signInHref } from '~/lib/auth-modal';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { conversationsPath } from '~/lib/dashboard-nav';
import { DELETED_ACCOUNT } from '~/lib/dashboard-format';
import { categoryByName, marketplaceCategoryHref } from '~/lib/categories';
import { pageParam } from '~/lib/pagination';
import { errorMeta, pageMeta } from '~/lib/meta';
import { hasPermission } from '~/lib/permissions';
import { storedImageSrc } from '~/lib/use-stored-image';
import {
  agentNotFound,
  getAgentSellerFor,
  listChangelog,
  listPublicChangelog,
  loadAgentPageFor,
  parseAgentId,
  readPackageInside,
} from '~/server/agent-detail.server';
import { listCategories } from '~/server/agents.server';
import { countAgentView } from '~/server/analytics.server';
import { storageOrigin } from '~/server/account.server';
import { appOrigin } from '~/server/auth.server';
import { failIfInjected } from '~/server/faults.server';
import { paymentProvider } from '~/server/payments/index.server';
import { discountPercentFor } from '~/server/purchases.server';
import { publicSupabase } from '~/server/supabase.server';
import type { Route } from './+types/agent';

export async function loader({ params, request, context, url }: Route.LoaderArgs) {
  const agentId = parseAgentId(params.agentId);
  const viewer = context.get(viewerContext);
  failIfInjected(request, 'agent');
  const publicClient = publicSupabase(context.get(connectionContext));
  // For the category link only: without the categories the page shows the name unlinked.
  const categoriesRead = listCategories(publicClient).catch(() => []);
  const clients = { publicClient, viewerClient: context.get(supabaseContext) };
  // A failed read throws the 503 screen (`unwrap` in agent-detail.server.ts).
  const [page, publicChangelog] = await Promise.all([
    loadAgentPageFor(clients, {
      agentId,
      viewerId: viewer?.id ?? null,
      requestedPage: pageParam(url.searchParams.get(REVIEWS_PAGE_PARAM)),
    }),
    listPublicChangelog(publicClient, agentId),
  ]);
  // Who may see an agent is one rule in the database (`public.can_view_agent`, used by the
  // agents' read policy): what this viewer may not read never arrives here.
  if (!page) agentNotFound();
  const { agent } = page;
  // A published agent's versions are everyone's (shared); a draft's, only its seller's and admins'.
  const [changelog, seller] = await Promise.all([
    agent.status === 'published' ? publicChangelog : listChangelog(clients.viewerClient, agentId),
    getAgentSellerFor(clients, { sellerId: agent.sellerId, viewerId: viewer?.id ?? null }),
  ]);
  // What is inside the current version, from its package's manifest (absent when there is none).
  const inside = await readPackageInside(context.get(connectionContext), agentId, changelog[0]?.version);
  const canPlaceOrders = !!viewer && hasPermission(viewer.role, 'place_orders');
  const cta = agentCallToAction({
    viewerId: viewer?.id ?? null,
    canPlaceOrders,
    sellerId: agent.sellerId,
    status: agent.status,
    owned: page.owned,
    pending: page.pending,
  });
  // What this buyer would pay: their tier's discount (from their own completed purchases, RLS).
  const discountPercent =
    cta === 'buy' && viewer ? await discountPercentFor(context.get(supabaseContext), viewer.id) : 0;
  const category = categoryByName(await categoriesRead, agent.category);
  // One view per visitor and day, written in the background (a new anonymous visitor gets an id cookie).
  const view = await countAgentView(
    { request, connection: context.get(connectionContext), viewerId: viewer?.id ?? null },
    agent,
  );

  const origin = appOrigin(request);
  const path = href('/agent/:agentId', { agentId });
  const body = {
    agent: {
      id: agent.id,
      name: agent.name,
      description: agent.description,
      price: agent.price,
      category: agent.category,
      status: agent.status,
      images: agent.images,
      features: agent.features,
      sellerUsername: agent.sellerUsername,
      sellerName: agent.sellerName,
      avgRating: agent.avgRating,
      reviewCount: agent.reviewCount,
      purchaseCount: agent.purchaseCount,
    },
    seller,
    changelog,
    inside,
    // Buyers, the seller and admins may download (the download route checks it again).
    canDownload: page.owned || cta === 'edit' || hasPermission(viewer?.role, 'view_all_data'),
    timeZone: timeZoneFromCookieHeader(request.headers.get('cookie')),
    categoryHref: category ? marketplaceCategoryHref(category) : null,
    distribution: ratingDistribution(page.ratingCounts),
    reviews: page.reviews,
    paging: { page: page.paging.page, pageCount: page.paging.pageCount },
    cta,
    // A question to the seller: anyone but the seller, about a published agent (signed out: the
    // sign-in comes first, then the message).
    messageHref:
      agent.status === 'published' && agent.sellerId && agent.sellerId !== viewer?.id
        ? `${conversationsPath(viewer?.role)}/new?agent=${agent.id}`
        : null,
    checkout: { discountPercent, testMode: paymentProvider().testMode },
    // Signed in, the visitor lands on the order summary: Buy, once, as they asked.
    signInHref: signInHref({
      over: { pathname: path, search: '' },
      returnTo: href('/agent/:agentId/checkout', { agentId }),
    }),
    canonicalUrl: `${origin}${path}`,
    imageUrl: agent.images[0]
      ? new URL(storedImageSrc(agent.images[0], storageOrigin(context.get(connectionContext))), origin).href
      : null,
  };
  return data(body, view);
}

/**
 * Buying is the order summary's (/agent/:agentId/checkout, routes/agent-checkout.tsx, shown over
 * this page). A refused purchase there (409: the price changed, the agent left the shop, it was
 * bought meanwhile) reloads this page's data too, so the panel behind shows the current price, with
 * JavaScript as without (React Router keeps the data after a 4xx by default).
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export function meta({ loaderData, error }: Route.MetaArgs) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return pageMeta('Agent not found', 'This agent does not exist or is not published on AgentMarket.');
  }
  // A failed load: the error screen's title (with JavaScript the page's data may remain).
  const failed = errorMeta(error);
  if (failed) return failed;
  if (!loaderData) return pageMeta('Something went wrong', 'This agent could not be loaded right now.');
  const { agent, canonicalUrl, imageUrl } = loaderData;
  return [
    ...pageMeta(agent.name, metaDescription(agent.description || `${agent.name}, an AI agent on AgentMarket.`)),
    { property: 'og:type', content: 'product' },
    { property: 'og:url', content: canonicalUrl },
    ...(imageUrl ? [{ property: 'og:image', content: imageUrl }] : []),
    { name: 'twitter:card', content: imageUrl ? 'summary_large_image' : 'summary' },
    { tagName: 'link', rel: 'canonical', href: canonicalUrl },
  ];
}

export default function AgentPage({ loaderData }: Route.ComponentProps) {
  const {
    agent,
    categoryHref,
    distribution,
    reviews,
    paging,
    cta,
    checkout,
    signInHref,
    changelog,
    canDownload,
    timeZone,
    seller,
    inside,
    messageHref,
  } = loaderData;
  return (
    <div className="container-page flex flex-col gap-10 py-10">
      <Breadcrumb trail={[{ to: '/marketplace', label: 'Marketplace' }]} current={agent.name} />

      {agent.status !== 'published' ? (
        <p className="flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <ShieldAlert aria-hidden="true" className="size-5 shrink-0" />
          {agent.status === 'draft'
            ? 'Draft: only you and administrators can see this page until it is published.'
            : 'Archived: this agent is no longer on sale.'}
        </p>
      ) : null}

      <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
        <AgentGallery name={agent.name} images={agent.images} fallback={agentArtworkPath(agent)} />

        <div className="flex flex-col gap-5">
          <div className="flex flex-col gap-3">
            {categoryHref ? (
              <Link
                to={categoryHref}
                className="w-fit rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700"
              >
                {agent.category}
              </Link>
            ) : (
              <span className="w-fit rounded-full bg-slate-100 px-3 py-1 text-xs font-medium text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                {agent.category}
              </span>
            )}
            <h1 className="text-3xl font-bold sm:text-4xl">{agent.name}</h1>
            <p className="flex items-center gap-2 text-sm">
              <Avatar name={agent.sellerName ?? DELETED_ACCOUNT} url={seller.pictureUrl} size="sm" />
              <span className="text-slate-700 dark:text-slate-300">
                Sold by{' '}
                <SellerLink
                  username={agent.sellerUsername}
                  name={agent.sellerName}
                  linked={seller.visible}
                  className={`font-medium text-slate-900 dark:text-slate-100 ${seller.visible ? 'underline' : ''}`}
                />
              </span>
            </p>
            <SellerContactLinks email={seller.email} phone={seller.phone} label="Contact the seller" />
            {messageHref ? (
              <Link
                to={messageHref}
                className="inline-flex w-fit items-center gap-1.5 text-sm font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
              >
                <MessageSquare aria-hidden="true" className="size-4" />
                Message the seller
              </Link>
            ) : null}
          </div>
          <p className="text-slate-800 dark:text-slate-200">{agent.description}</p>
          <AgentPurchasePanel
            agentId={agent.id}
            agentName={agent.name}
            price={agent.price}
            purchaseCount={agent.purchaseCount}
            cta={cta}
            checkout={checkout}
            signInHref={signInHref}
          />
        </div>
      </div>

      {agent.features.length ? (
        <section aria-labelledby="features-title" className="flex flex-col gap-4">
          <h2 id="features-title" className="text-2xl font-bold">
            Features
          </h2>
          <ul className="grid gap-3 sm:grid-cols-2">
            {agent.features.map((feature) => (
              <li key={feature} className="flex items-start gap-2">
                <CheckCircle2
                  aria-hidden="true"
                  className="mt-0.5 size-5 shrink-0 text-green-700 dark:text-green-400"
                />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      {inside ? <AgentInside inside={inside} agentName={agent.name} /> : null}

      <AgentChangelog agentId={agent.id} entries={changelog} canDownload={canDownload} timeZone={timeZone} />

      <section id="reviews" aria-labelledby="reviews-title" className="flex scroll-mt-24 flex-col gap-6">
        <h2 id="reviews-title" className="text-2xl font-bold">
          Ratings and reviews
        </h2>
        <AgentRatingSummary avgRating={agent.avgRating} reviewCount={agent.reviewCount} distribution={distribution} />
        <AgentReviews reviews={reviews} paging={paging} />
      </section>

      {/* The order summary (/agent/:agentId/checkout): a dialog over this page. */}
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
