/** B-default's one page: F's 24 cards from a constant loader, as app/routes/perf-fixture.tsx renders them. */
import { useLoaderData } from 'react-router';
import { PerfFixtureGrid } from '~/components/agents/perf-fixture-grid';
import { PERF_FIXTURE_AGENTS } from '~/lib/perf-fixture-agents';

export function loader() {
  return { agents: PERF_FIXTURE_AGENTS };
}

export function meta() {
  return [{ title: 'Performance fixture' }];
}

export default function Home() {
  const { agents } = useLoaderData<typeof loader>();
  return <PerfFixtureGrid agents={agents} />;
}
