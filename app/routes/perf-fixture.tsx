/**
 * The benchmark's baseline F (`npm run bench`, ADR 004): the marketplace's card grid, rendered
 * from a constant loader with no database and no auth of its own, in the same build as the app.
 * Not reachable in normal deployments: a 404 unless ENABLE_PERF_FIXTURE=true.
 */
import { AgentCard } from '~/components/agents/agent-card';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import type { AgentSummary } from '~/lib/agents';
import { SAMPLE_AGENTS } from '~/lib/sample-agents';
import { env } from '~/server/env.server';
import { notFound } from '~/server/http-errors.server';
import type { Route } from './+types/perf-fixture';

const SELLERS = ['demo_seller', 'nova_labs', 'quillworks', 'ledgerlogic', 'pipeline_pros', 'carecraft_ai'];

const AGENTS: AgentSummary[] = Array.from({ length: 24 }, (_, index) => {
  // Made-up cards of the same shape as the marketplace's (no database here, by design).
  const { category, thumbnailUrl } = SAMPLE_AGENTS[index % SAMPLE_AGENTS.length]!;
  return {
    id: `f0000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    name: `${category} Assistant ${index + 1}`,
    description: `Automates the routine ${category.toLowerCase()} work of a small team: drafts, checks and reports, ready in minutes.`,
    price: 19 + ((index * 37) % 281),
    category,
    thumbnailUrl,
    sellerUsername: SELLERS[index % SELLERS.length]!,
    avgRating: 3 + (index % 5) * 0.45,
    reviewCount: (index * 7) % 40,
  };
});

export function loader() {
  if (!env.ENABLE_PERF_FIXTURE) {
    notFound();
  }
  return { agents: AGENTS };
}

export const meta = () => [{ title: 'Performance fixture' }, { name: 'robots', content: 'noindex' }];

export default function PerfFixture({ loaderData }: Route.ComponentProps) {
  return (
    <div className="container-page py-10">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">AI Agent Marketplace</h1>
      <section aria-label="Results" className="mt-8 min-w-0 flex-1">
        <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
          {loaderData.agents.map((agent) => (
            <li key={agent.id} className="flex">
              <AgentCard agent={agent} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
