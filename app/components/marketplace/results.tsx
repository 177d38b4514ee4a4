import { LayoutGrid, List, SearchX } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { AgentCard } from '~/components/agents/agent-card';
import { EmptyState } from '~/components/page-states';
import type { AgentSummary } from '~/lib/agents';
import { marketplaceHref, type MarketplaceParams } from '~/lib/marketplace-params';

export const SKELETON_COUNT = 10;

/** Cards in the first row of the widest card grid: their pictures load at once (one is the largest paint). */
export const EAGER_CARDS = 3;

export function ResultList({ agents, view }: { agents: AgentSummary[]; view: MarketplaceParams['view'] }) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <ul className={view === 'grid' ? 'grid gap-6 sm:grid-cols-2 xl:grid-cols-3' : 'flex flex-col gap-4'}>
      {agents.map((agent, index) => (
        <li key={agent.id} className="flex">
          <AgentCard agent={agent} view={view} eager={index < EAGER_CARDS} cartReturnTo={here} />
        </li>
      ))}
    </ul>
  );
}

/** Placeholder cards (ten by default) while a client-side navigation loads the next results. */
export function SkeletonList({
  view,
  count = SKELETON_COUNT,
  label = 'Loading agents',
}: {
  view: MarketplaceParams['view'];
  count?: number;
  label?: string;
}) {
  return (
    <ul
      aria-busy="true"
      aria-label={label}
      className={view === 'grid' ? 'grid gap-6 sm:grid-cols-2 xl:grid-cols-3' : 'flex flex-col gap-4'}
    >
      {Array.from({ length: count }, (_, index) => (
        <li
          key={index}
          data-testid="skeleton-card"
          className="animate-pulse rounded-2xl border border-slate-200 p-4 dark:border-slate-700"
          style={{ animationDelay: `${(index % 6) * 100}ms` }}
        >
          <div className="aspect-video rounded-lg bg-slate-200 dark:bg-slate-800" />
          <div className="mt-4 h-4 w-2/3 rounded bg-slate-200 dark:bg-slate-800" />
          <div className="mt-2 h-3 w-full rounded bg-slate-200 dark:bg-slate-800" />
        </li>
      ))}
    </ul>
  );
}

/** `didYouMean`: the search as the catalogue spells it, when that finds agents. */
export function NoResults({ didYouMean = null }: { didYouMean?: { query: string; href: string } | null }) {
  return (
    <EmptyState
      icon={<SearchX aria-hidden="true" className="size-10" />}
      title="No agents found"
      message="Try adjusting your filters or search terms to see more results."
    >
      {didYouMean ? (
        <p className="mt-4 text-slate-800 dark:text-slate-200">
          Did you mean{' '}
          <Link to={didYouMean.href} className="font-semibold text-brand-700 underline dark:text-brand-300">
            {didYouMean.query}
          </Link>
          ?
        </p>
      ) : null}
      <Link to="/marketplace" className="mt-4 font-medium text-brand-700 hover:underline dark:text-brand-300">
        Clear all filters
      </Link>
    </EmptyState>
  );
}

export function ViewToggle({ params }: { params: MarketplaceParams }) {
  const options = [
    { view: 'grid' as const, label: 'Grid view', Icon: LayoutGrid },
    { view: 'list' as const, label: 'List view', Icon: List },
  ];
  return (
    <div className="flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-600">
      {options.map(({ view, label, Icon }) => (
        <Link
          key={view}
          to={marketplaceHref({ ...params, view })}
          preventScrollReset
          aria-label={label}
          aria-current={params.view === view ? 'true' : undefined}
          className={`flex size-9 items-center justify-center rounded-md ${
            params.view === view
              ? 'bg-brand-600 text-white'
              : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
          }`}
        >
          <Icon aria-hidden="true" className="size-4" />
        </Link>
      ))}
    </div>
  );
}
