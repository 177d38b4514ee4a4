/**
 * The benchmark's baseline F (`npm run bench`, ADR 004): the marketplace's card grid, rendered
 * from a constant loader with no database and no auth of its own, in the same build as the app.
 * Not reachable in normal deployments: a 404 unless ENABLE_PERF_FIXTURE=true.
 */
import { PerfFixtureGrid } from '~/components/agents/perf-fixture-grid';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { PERF_FIXTURE_AGENTS as AGENTS } from '~/lib/perf-fixture-agents';
import { env } from '~/server/env.server';
import { notFound } from '~/server/http-errors.server';
import type { Route } from './+types/perf-fixture';

export function loader() {
  if (!env.ENABLE_PERF_FIXTURE) {
    notFound();
  }
  return { agents: AGENTS };
}

export const meta = () => [{ title: 'Performance fixture' }, { name: 'robots', content: 'noindex' }];

export default function PerfFixture({ loaderData }: Route.ComponentProps) {
  return <PerfFixtureGrid agents={loaderData.agents} />;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
