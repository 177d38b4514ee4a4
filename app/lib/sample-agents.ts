import type { AgentSummary } from '~/lib/agents';

/**
 * The five static sample agents (docs/product.md, "Public pages"; prices 99, 149, 79, 129 and
 * 89). Shown on the home page only when the database holds no published agent at all.
 */
export const SAMPLE_AGENTS: AgentSummary[] = [
  {
    id: 'sample-1',
    name: 'Campaign Copilot',
    description: 'Plans multi-channel marketing campaigns and writes the copy for each channel.',
    price: 99,
    category: 'Marketing',
    thumbnailUrl: '/thumbnails/marketing-1.svg',
    sellerUsername: 'growthlab',
    sellerName: 'growthlab',
    avgRating: 4.8,
    reviewCount: 124,
  },
  {
    id: 'sample-2',
    name: 'Insight Analyst',
    description: 'Connects to your spreadsheets and explains trends, outliers and forecasts in plain words.',
    price: 149,
    category: 'Data Analysis',
    thumbnailUrl: '/thumbnails/data-analysis-1.svg',
    sellerUsername: 'datasmiths',
    sellerName: 'datasmiths',
    avgRating: 4.9,
    reviewCount: 89,
  },
  {
    id: 'sample-3',
    name: 'Blog Writer Pro',
    description: 'Researches a topic and drafts SEO-friendly long-form articles in your voice.',
    price: 79,
    category: 'Content Creation',
    thumbnailUrl: '/thumbnails/content-creation-1.svg',
    sellerUsername: 'wordcraft',
    sellerName: 'wordcraft',
    avgRating: 4.7,
    reviewCount: 203,
  },
  {
    id: 'sample-4',
    name: 'Lead Qualifier',
    description: 'Scores inbound leads, enriches them and books meetings with the promising ones.',
    price: 129,
    category: 'Sales',
    thumbnailUrl: '/thumbnails/sales-1.svg',
    sellerUsername: 'pipelinepro',
    sellerName: 'pipelinepro',
    avgRating: 4.6,
    reviewCount: 67,
  },
  {
    id: 'sample-5',
    name: 'Support Responder',
    description: 'Answers customer tickets from your knowledge base and escalates the tricky ones.',
    price: 89,
    category: 'Customer Support',
    thumbnailUrl: '/thumbnails/customer-support-1.svg',
    sellerUsername: 'helpdeskhq',
    sellerName: 'helpdeskhq',
    avgRating: 4.8,
    reviewCount: 156,
  },
];
