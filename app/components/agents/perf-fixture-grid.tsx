import { AgentCard } from '~/components/agents/agent-card';
import { PERF_FIXTURE_AGENTS } from '~/lib/perf-fixture-agents';

/**
 * The page body of the benchmark's baseline F (app/routes/perf-fixture.tsx) and of B-default
 * (bench/b-default/): a heading and the 24 fixture cards in the marketplace's grid.
 */
export function PerfFixtureGrid({ agents = PERF_FIXTURE_AGENTS }: { agents?: typeof PERF_FIXTURE_AGENTS }) {
  return (
    <div className="container-page py-10">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">AI Agent Marketplace</h1>
      <section aria-label="Results" className="mt-8 min-w-0 flex-1">
        <ul className="grid gap-6 sm:grid-cols-2 xl:grid-cols-3">
          {agents.map((agent) => (
            <li key={agent.id} className="flex">
              <AgentCard agent={agent} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
