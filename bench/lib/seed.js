/**
 * Deterministic bulk data through the Data API with the service_role key: N published agents
 * across the categories of the database being seeded (read from `public.categories`, the one
 * list of categories, ADR 011; ids b0000000-…-<n>), and completed purchases with reviews for
 * many of them, so the popular and rating sorts and the rating filter have varied data.
 */
export const SELLERS = [
  '00000000-0000-4000-8000-000000000002',
  '00000000-0000-4000-8000-000000000011',
  '00000000-0000-4000-8000-000000000012',
  '00000000-0000-4000-8000-000000000013',
  '00000000-0000-4000-8000-000000000014',
  '00000000-0000-4000-8000-000000000015',
];
const BUYERS = [
  '00000000-0000-4000-8000-000000000001',
  ...Array.from({ length: 10 }, (_, i) => `00000000-0000-4000-8000-0000000000${21 + i}`),
];
export const ROLES = [
  'Assistant',
  'Copilot',
  'Analyst',
  'Planner',
  'Writer',
  'Coach',
  'Auditor',
  'Optimizer',
  'Scout',
  'Bot',
];
/** Name words for the agents of the i-th category (by position; any number of categories works). */
export const TOPICS = [
  ['Campaign', 'SEO', 'Ad Copy', 'Social', 'Email', 'Brand'],
  ['Dashboard', 'Forecast', 'SQL', 'Cohort', 'Anomaly', 'Data Cleaning'],
  ['Blog', 'Script', 'Newsletter', 'Caption', 'Editor', 'Story'],
  ['Lead', 'Outreach', 'CRM', 'Pipeline', 'Deal', 'Prospect'],
  ['Ticket', 'Help Desk', 'FAQ', 'Chat', 'Triage', 'Knowledge Base'],
  ['Invoice', 'Budget', 'Expense', 'Tax', 'Cash Flow', 'Ledger'],
];
export const VERBS = [
  'drafts',
  'reviews',
  'summarises',
  'automates',
  'monitors',
  'prioritises',
  'explains',
  'schedules',
];
export const OBJECTS = ['reports', 'workflows', 'customer messages', 'weekly plans', 'spreadsheets', 'data pipelines'];

/** mulberry32: a small seeded PRNG, so every run seeds the same data. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const agentId = (n) => `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** `categories`: category names in display order, as `readCategories` returns them. */
export function generate(count, categories, now = Date.UTC(2026, 10, 1)) {
  if (categories.length === 0) throw new Error('No categories to seed agents into');
  const random = prng(42);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const agents = [];
  const purchases = [];
  const reviews = [];
  for (let n = 1; n <= count; n++) {
    const index = n % categories.length;
    const category = categories[index];
    const slug = category.toLowerCase().replace(/\s+/g, '-');
    const topic = pick(TOPICS[index % TOPICS.length]);
    const price = random() < 0.1 ? 0 : Math.round((9 + random() * 291) * 100) / 100;
    const id = agentId(n);
    agents.push({
      id,
      name: `${topic} ${pick(ROLES)} ${n}`,
      description: `${topic} agent that ${pick(VERBS)} ${pick(OBJECTS)} and ${pick(VERBS)} ${pick(OBJECTS)} for ${category.toLowerCase()} teams.`,
      price,
      category,
      thumbnail_url: `/thumbnails/${slug}-${1 + (n % 6)}.svg`,
      features: ['Setup in minutes', `${topic} templates`, 'Works with your tools'],
      seller_id: SELLERS[n % SELLERS.length],
      status: 'published',
      created_at: new Date(now - Math.floor(random() * 730 * 86_400_000)).toISOString(),
    });
    // 0–3 completed purchases (mean ≈ 1.2); most buyers leave a review.
    const buyers = [0, 0, 1, 1, 2, 3][Math.floor(random() * 6)];
    const start = Math.floor(random() * BUYERS.length);
    for (let b = 0; b < buyers; b++) {
      const buyer = BUYERS[(start + b) % BUYERS.length];
      purchases.push({ buyer_id: buyer, agent_id: id, list_price: price, amount: price, status: 'completed' });
      if (random() < 0.8) {
        const rating = [1, 2, 3, 3, 4, 4, 4, 5, 5, 5][Math.floor(random() * 10)];
        reviews.push({ agent_id: id, buyer_id: buyer, rating, review_text: `Rated ${rating}: ${pick(VERBS)} well.` });
      }
    }
  }
  return { agents, purchases, reviews };
}

/** The category names of the backend being seeded, in display order. */
export async function readCategories(origin, serviceKey) {
  const response = await fetch(`${origin}/rest/v1/categories?select=name&order=position,name`, {
    headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` },
  });
  if (!response.ok) throw new Error(`GET categories: ${response.status} ${await response.text()}`);
  return (await response.json()).map((row) => row.name);
}

async function post(origin, serviceKey, table, rows) {
  const response = await fetch(`${origin}/rest/v1/${table}`, {
    method: 'POST',
    headers: {
      apikey: serviceKey,
      authorization: `Bearer ${serviceKey}`,
      'content-type': 'application/json',
      prefer: 'return=minimal',
    },
    body: JSON.stringify(rows),
  });
  if (!response.ok) throw new Error(`POST ${table}: ${response.status} ${await response.text()}`);
}

/** Inserts everything in batches; returns the row counts and the time taken. */
export async function seed(origin, serviceKey, count, batchSize = 500) {
  const started = performance.now();
  const data = generate(count, await readCategories(origin, serviceKey));
  for (const table of ['agents', 'purchases', 'reviews']) {
    const rows = data[table];
    for (let i = 0; i < rows.length; i += batchSize)
      await post(origin, serviceKey, table, rows.slice(i, i + batchSize));
  }
  return {
    agents: data.agents.length,
    purchases: data.purchases.length,
    reviews: data.reviews.length,
    seconds: (performance.now() - started) / 1000,
    /** Each agent's list price by id: the Buy form carries the price its buyer was shown. */
    prices: new Map(data.agents.map((agent) => [agent.id, agent.price])),
  };
}
