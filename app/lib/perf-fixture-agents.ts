/**
 * The 24 made-up cards of the benchmark's baseline F (app/routes/perf-fixture.tsx) and of
 * B-default (bench/b-default/, the same cards in a default React Router app): one list, so both
 * render exactly the same data (ADR 004).
 */
import type { AgentSummary } from '~/lib/agents';
import { SAMPLE_AGENTS } from '~/lib/sample-agents';

const SELLERS = ['demo_seller', 'nova_labs', 'quillworks', 'ledgerlogic', 'pipeline_pros', 'carecraft_ai'];

export const PERF_FIXTURE_AGENTS: AgentSummary[] = Array.from({ length: 24 }, (_, index) => {
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
    sellerName: SELLERS[index % SELLERS.length]!,
    avgRating: 3 + (index % 5) * 0.45,
    reviewCount: (index * 7) % 40,
  };
});
