/**
 * The demo agents' package files. supabase/seed.sql gives every seeded agent one or two versions
 * whose files live at their package path (`<seller_id>/<agent_id>/<version>/<slug>.json`,
 * app/lib/package-path.ts) in the private Storage bucket 'agent-packages', with `file_size = 0`
 * meaning "not written yet" (SQL cannot write Storage objects; a package the app stores is never
 * empty, and a database that had the older `demo/` paths got 0 again when they moved). This module
 * writes them: per version, a manifest in the agent package format (app/lib/agent-package.ts),
 * built from what the seed knows of the agent (name, description, category, features): its own
 * instructions, a tool per feature with input parameters fitting its category, example
 * conversations, a stated model family and a README. Then the real size on the version row. The
 * embedded backend runs it at start in demo mode (server/app.ts); a seeded hosted project runs
 * `npm run db:seed-packages`. Idempotent: a second run finds nothing to write and costs one query.
 * Deterministic: the same agent and version always give the same bytes.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { AgentPackage, AgentTool } from '../app/lib/agent-package';
import { AGENT_PACKAGE_SCHEMA_PATH } from '../app/lib/agent-package-format';
import { isPackagePath } from '../app/lib/package-path';
import { PACKAGES_BUCKET } from '../app/lib/storage-buckets';
import type { Database } from '../app/types/database';

/** How a stored package names its format: the path, resolved against the origin that serves it (ADR 058). */
export const MANIFEST_SCHEMA = AGENT_PACKAGE_SCHEMA_PATH;

export interface DemoAgent {
  name: string;
  description: string;
  category: string;
  features: readonly string[];
}

type JsonSchema = Record<string, unknown>;

/** One input parameter of a tool: its JSON Schema and a value the examples use. */
interface Param {
  name: string;
  schema: JsonSchema;
  example: unknown;
}

/** A situation a buyer of the category is in, and the main thing its tools work on there. */
interface Scenario {
  text: string;
  subject: string;
}

/** What the agents of one category have in common. */
interface CategoryKit {
  /** "a marketing agent". */
  noun: string;
  /** Two sentences of how agents of the category work. */
  guidance: string;
  /** What a tool works on: "for the campaign you name". */
  worksOn: string;
  /** The question an example answer ends with. */
  followUp: string;
  /** The parameter every tool of the category takes (required); its example comes from the scenario. */
  subject: Omit<Param, 'example'>;
  /** Parameters that fill a tool up to three. */
  secondary: Param[];
  scenarios: Scenario[];
  /** What a tool gives back. */
  returns: string;
  temperature: number;
  maxTokens: number;
}

const DATE = { type: 'string', format: 'date' };
const PERIOD: Param = {
  name: 'period',
  schema: {
    type: 'object',
    description: 'The dates to cover, both included.',
    properties: { start: DATE, end: DATE },
    required: ['start', 'end'],
  },
  example: { start: '2025-03-01', end: '2025-03-31' },
};
const NOTIFY: Param = {
  name: 'notify',
  schema: { type: 'string', description: 'Where alerts go: a Slack channel or an email address.' },
  example: '#team-alerts',
};
const LIMIT: Param = {
  name: 'limit',
  schema: { type: 'integer', minimum: 1, maximum: 500, description: 'How many results to return, best first.' },
  example: 20,
};
const LANGUAGE: Param = {
  name: 'language',
  schema: { type: 'string', description: 'The language to write in, as a BCP 47 tag (en, de, pt-BR).' },
  example: 'de',
};
const VARIANTS: Param = {
  name: 'variants',
  schema: {
    type: 'array',
    minItems: 2,
    items: { type: 'string' },
    description: 'The versions to compare, by name or id.',
  },
  example: ['control', 'variant_b'],
};
const GUIDELINES: Param = {
  name: 'guidelines',
  schema: { type: 'string', description: 'Your brand or style guidelines, as text or a link.' },
  example: 'https://example.com/brand-guide',
};
const TIME_ZONE: Param = {
  name: 'time_zone',
  schema: { type: 'string', description: 'An IANA time zone, e.g. Europe/Berlin.' },
  example: 'Europe/Berlin',
};
const MATCH_FIELDS: Param = {
  name: 'match_fields',
  schema: { type: 'array', items: { type: 'string' }, description: 'The fields that make two records the same.' },
  example: ['email', 'company'],
};
const RULES: Param = {
  name: 'rules',
  schema: { type: 'string', description: 'The rules or policy to apply, one per line.' },
  example: 'Approve up to $100 without receipts over 30 days old.',
};

/** Feature words → a parameter the tool also takes (at most two per tool, in this order). */
const EXTRAS: { test: RegExp; param: Param }[] = [
  { test: /report|digest|briefing|trend|weekly|monthly|quarter|forecast|cohort|calendar/i, param: PERIOD },
  { test: /alert|warning|monitor|flag/i, param: NOTIFY },
  { test: /scor|risk|rank|suggest|discovery|search/i, param: LIMIT },
  { test: /language|multilingual|translat/i, param: LANGUAGE },
  { test: /experiment|variant|a\/b|sequential testing/i, param: VARIANTS },
  { test: /template|brand|tone|voice|style/i, param: GUIDELINES },
  { test: /booking|schedul|meeting|reminder|time zone|holiday/i, param: TIME_ZONE },
  { test: /duplicate/i, param: MATCH_FIELDS },
  { test: /rule|guardrail|polic|compliance|approval/i, param: RULES },
];

/** A feature's last word → the name of the parameter that picks one of the platforms it names. */
const PLATFORM_PARAMS: { test: RegExp; name: string; description: string }[] = [
  { test: /\bexport$/, name: 'export_to', description: 'Where to export the result.' },
  { test: /\bimport$/, name: 'import_from', description: 'Where to import the data from.' },
  { test: /\bdelivery$/, name: 'deliver_to', description: 'Where to deliver the result.' },
  { test: /\bsizes$/, name: 'placement', description: 'The placement to size for.' },
  {
    test: /\b(sync|integrations?|connectors|support|plugins|add-ins|sources|refunds|publishing)$/,
    name: 'platform',
    description: 'The connected platform to work in.',
  },
  { test: /\b(tracking|payback|metrics)$/, name: 'metric', description: 'The metric to compute.' },
];

const KITS: Record<string, CategoryKit> = {
  Marketing: {
    noun: 'a marketing agent',
    worksOn: 'for the campaign you name',
    followUp: 'What cost per acquisition are you aiming for?',
    guidance:
      'Tie every recommendation to a campaign goal and the metric it moves (cost per acquisition, click-through rate, conversions). Respect each platform’s advertising policies and the brand guidelines the user gives you, and flag anything that might breach them.',
    subject: {
      name: 'campaign',
      schema: { type: 'string', description: 'The campaign, as it is named in your ad or email platform.' },
    },
    secondary: [
      {
        name: 'channel',
        schema: {
          type: 'string',
          enum: ['google_ads', 'meta', 'linkedin', 'email', 'organic_search'],
          description: 'The channel to work on; every connected channel when left out.',
        },
        example: 'meta',
      },
      PERIOD,
    ],
    scenarios: [
      {
        text: 'Our spring sale campaign goes live on Monday with a $12,000 budget across Google Ads and Meta.',
        subject: 'spring-sale',
      },
      {
        text: 'Sign-ups from our always-on free trial campaign fell by a fifth last week while spend stayed the same.',
        subject: 'free-trial-always-on',
      },
      {
        text: 'We launch a new product line next month and want the launch campaign to reach small agencies.',
        subject: 'product-launch',
      },
    ],
    returns: 'the changes it proposes, each with the figures behind it',
    temperature: 0.6,
    maxTokens: 1500,
  },
  'Data Analysis': {
    noun: 'a data analysis agent',
    worksOn: 'on the dataset you name',
    followUp: 'Which time zone should I count days in?',
    guidance:
      'State the data you used, its period and filters, and show the query or method behind every figure. Call out small samples, missing data and seasonality before drawing conclusions, and describe a chart in a sentence rather than pasting a wall of numbers.',
    subject: {
      name: 'dataset',
      schema: { type: 'string', description: 'The table, view or file to analyse, e.g. analytics.orders.' },
    },
    secondary: [
      {
        name: 'metric',
        schema: { type: 'string', description: 'The metric to examine, as your warehouse names it.' },
        example: 'weekly_active_users',
      },
      PERIOD,
    ],
    scenarios: [
      {
        text: 'Our weekly active users dropped 8% last week and nobody knows why. The events are in analytics.events.',
        subject: 'analytics.events',
      },
      {
        text: 'Finance wants revenue by region for the last two quarters, from our orders table.',
        subject: 'sales.orders',
      },
      {
        text: 'I have a CSV export of 40,000 support tickets with their created and resolved times.',
        subject: 'tickets_export.csv',
      },
    ],
    returns: 'a short table of results and the query or method that produced it',
    temperature: 0.2,
    maxTokens: 2000,
  },
  'Content Creation': {
    noun: 'a content creation agent',
    worksOn: 'on the topic you give',
    followUp: 'Is there a style guide I should follow?',
    guidance:
      'Match the audience, tone and length the user asks for, and keep facts checkable: cite sources for claims and never make up quotes. Deliver drafts in Markdown with headings, and offer one alternative angle when the brief leaves room.',
    subject: { name: 'topic', schema: { type: 'string', description: 'What the piece is about.' } },
    secondary: [
      {
        name: 'audience',
        schema: { type: 'string', description: 'Who it is for.' },
        example: 'small-business owners',
      },
      {
        name: 'tone',
        schema: {
          type: 'string',
          enum: ['friendly', 'professional', 'playful', 'authoritative'],
          description: 'How it should sound.',
        },
        example: 'friendly',
      },
    ],
    scenarios: [
      {
        text: 'We sell accounting software to freelancers and want to explain how to get ready for tax season.',
        subject: 'Getting your freelance finances ready for tax season',
      },
      {
        text: 'Our new feature, shared team calendars, ships next Tuesday and we need the launch content.',
        subject: 'Shared team calendars launch',
      },
      {
        text: 'Our readers are first-time home buyers who find mortgages confusing.',
        subject: 'How fixed and variable mortgages differ',
      },
    ],
    returns: 'a draft in Markdown, ready to edit',
    temperature: 0.8,
    maxTokens: 4000,
  },
  Sales: {
    noun: 'a sales agent',
    worksOn: 'for the account you name',
    followUp: 'Who owns this account on your side?',
    guidance:
      'Keep every message personal, short and honest: no false urgency, no invented connections. Record what you learn in the CRM fields the user names, and respect opt-outs and the rules on cold outreach where the prospect lives.',
    subject: { name: 'account', schema: { type: 'string', description: 'The company, by name or CRM id.' } },
    secondary: [
      {
        name: 'contact_email',
        schema: { type: 'string', format: 'email', description: 'The person at the account, if there is one.' },
        example: 'ops.lead@northwind.example',
      },
      {
        name: 'crm',
        schema: {
          type: 'string',
          enum: ['salesforce', 'hubspot', 'pipedrive'],
          description: 'The CRM to read and update.',
        },
        example: 'hubspot',
      },
    ],
    scenarios: [
      {
        text: 'Northwind Logistics booked a demo for Thursday; their head of operations downloaded our pricing guide twice.',
        subject: 'Northwind Logistics',
      },
      {
        text: 'Our deal with Contoso Retail has been stuck at the proposal stage for three weeks.',
        subject: 'Contoso Retail',
      },
      {
        text: 'Our webinar brought in 40 sign-ups yesterday, Fabrikam Health among them.',
        subject: 'Fabrikam Health',
      },
    ],
    returns: 'the updated records and the next step it recommends',
    temperature: 0.4,
    maxTokens: 1200,
  },
  'Customer Support': {
    noun: 'a customer support agent',
    worksOn: 'for the ticket you name',
    followUp: 'Shall I send the reply, or leave it as a draft for you?',
    guidance:
      'Be warm, clear and accurate: answer from the help centre and the customer’s own history, and never promise refunds, credits or dates the policy does not allow. Hand the conversation to a person, with a summary, when the customer is upset, asks for one, or the case is outside the policy.',
    subject: {
      name: 'ticket_id',
      schema: { type: 'string', description: 'The ticket or conversation id in your help desk.' },
    },
    secondary: [
      {
        name: 'priority',
        schema: { type: 'string', enum: ['low', 'normal', 'high', 'urgent'], description: 'How urgent the case is.' },
        example: 'high',
      },
      {
        name: 'customer_message',
        schema: { type: 'string', description: 'What the customer wrote, if it is not in the ticket yet.' },
        example: 'My order arrived damaged.',
      },
    ],
    scenarios: [
      {
        text: 'Ticket 48213: "My order arrived damaged and I need a replacement before Friday."',
        subject: '48213',
      },
      {
        text: 'A customer on chat asks why they were charged twice this month (ticket 50177).',
        subject: '50177',
      },
      {
        text: 'Ticket 49920 is from a long-time customer who cannot sign in since resetting their password.',
        subject: '49920',
      },
    ],
    returns: 'a suggested reply and the ticket fields to update',
    temperature: 0.3,
    maxTokens: 1000,
  },
  Finance: {
    noun: 'a finance agent',
    worksOn: 'for the company you name',
    followUp: 'Who approves the entries once they are ready?',
    guidance:
      'Be exact: reconcile every figure to its source documents, state currencies and periods, and round only at the end. Never move money or post entries without explicit approval, and flag anything that looks like fraud, a duplicate or a policy breach.',
    subject: { name: 'entity', schema: { type: 'string', description: 'The company or ledger entity to work on.' } },
    secondary: [
      PERIOD,
      {
        name: 'currency',
        schema: { type: 'string', pattern: '^[A-Z]{3}$', description: 'An ISO 4217 currency code, e.g. EUR.' },
        example: 'EUR',
      },
    ],
    scenarios: [
      {
        text: 'We are closing March for Acme UK Ltd and the controller wants everything reconciled by Wednesday.',
        subject: 'Acme UK Ltd',
      },
      {
        text: 'Our payables inbox holds 120 supplier invoices for Northwind GmbH from the last two weeks.',
        subject: 'Northwind GmbH',
      },
      {
        text: 'The board meets next week and wants the cash position of Contoso Inc. for the coming quarter.',
        subject: 'Contoso Inc.',
      },
    ],
    returns: 'the figures with the source documents they come from',
    temperature: 0.1,
    maxTokens: 1500,
  },
};

/** For a category the seed does not know. */
const GENERIC: CategoryKit = {
  noun: 'an AI agent',
  worksOn: 'for what you give it',
  followUp: 'Is there anything I should leave alone?',
  guidance:
    'Ask for what you need to do the job well, and say what you assumed. Keep the user in control of every change you make.',
  subject: { name: 'input', schema: { type: 'string', description: 'What to work on.' } },
  secondary: [
    {
      name: 'notes',
      schema: { type: 'string', description: 'Anything else the tool should know.' },
      example: 'Keep it short.',
    },
  ],
  scenarios: [{ text: 'We would like a hand with this week’s work.', subject: 'this week' }],
  returns: 'what it did and what it suggests next',
  temperature: 0.5,
  maxTokens: 1500,
};

const MODEL_FAMILIES = ['gpt-4o class', 'claude-3.5 class', 'any chat model with tool calling'] as const;

/** FNV-1a: a small stable hash of a text, for choices that must not change between runs. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

function pick<T>(items: readonly T[], key: string): T {
  return items[hash(key) % items.length]!;
}

/** A tool's name from its feature: snake_case, starting with a letter, at most 64 characters. */
function toolName(feature: string): string {
  const snake = feature
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  const named = /^[a-z]/.test(snake) ? snake : `run_${snake || 'tool'}`;
  return named.slice(0, 64).replace(/_+$/, '');
}

const slugValue = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/**
 * The platforms a feature names ("Google Ads and Meta connectors" → google_ads, meta) as a
 * parameter picking one of them, named after what the feature does with them; null unless it
 * names at least two.
 */
function platformParam(feature: string): Param | null {
  const kind = PLATFORM_PARAMS.find((candidate) => candidate.test.test(feature.toLowerCase()));
  if (!kind) return null;
  const names = feature
    .split(/,\s*|\s+and\s+|\s+or\s+/)
    .map((part) => part.match(/(?:[A-Z][\w.+-]*)(?:\s+[A-Z][\w.+-]*)*/g)?.at(-1) ?? '')
    .filter((name) => name !== '');
  if (names.length < 2) return null;
  const values = names.map(slugValue);
  return {
    name: kind.name,
    schema: { type: 'string', enum: values, description: `${kind.description} One of: ${names.join(', ')}.` },
    example: values[0],
  };
}

/** The parameters of a feature's tool: the category's subject, what the feature names, up to three or four. */
function toolParams(kit: CategoryKit, feature: string, subjectExample: string): Param[] {
  const params: Param[] = [{ ...kit.subject, example: subjectExample }];
  const add = (param: Param) => {
    if (!params.some((known) => known.name === param.name)) params.push(param);
  };
  const platform = platformParam(feature);
  if (platform) add(platform);
  for (const extra of EXTRAS.filter((candidate) => candidate.test.test(feature)).slice(0, 2)) add(extra.param);
  for (const secondary of kit.secondary) if (params.length < 3) add(secondary);
  return params;
}

/** What a tool gives back, by what its feature says it does; else what the category's tools give. */
const RETURNS: [RegExp, string][] = [
  [/report|digest|summar|briefing|notes|narrat|write-up/i, 'a short written summary'],
  [/alert|warning|monitor|watch/i, 'the alerts it set up and what triggers each one'],
  [/export/i, 'a link to the exported file'],
  [
    /sync|connector|integration|import|support|plugin|add-in|add-on|sources|publishing/i,
    'the records it read or wrote, each with a link back to its source',
  ],
  [/forecast|predict|projection/i, 'the forecast with its confidence range and the drivers behind it'],
  [/scor|risk|rank/i, 'the scores, highest first, each with the signals that drove it'],
  [/suggest|recommend|idea|next best/i, 'ranked suggestions, each with the reason for it'],
  [
    /detect|check|audit|validation|review|test|compliance|match/i,
    'what it found, most serious first, with the evidence',
  ],
  [/draft|writ|generat|template|copy|repl|script|outline|caption|headline|macro/i, 'a draft to review and edit'],
  [
    /track|dashboard|chart|analytics|metrics|trend|cohort|map/i,
    'the figures for the period and how they changed from the one before',
  ],
  [
    /routing|booking|schedul|calendar|reminder|sequence|handoff|escalat/i,
    'what it scheduled or routed, to whom and when',
  ],
];

function returnsOf(kit: CategoryKit, feature: string): string {
  return RETURNS.find(([test]) => test.test(feature))?.[1] ?? kit.returns;
}

/** An argument as a sentence says it: "spring-sale", 20, 2025-03-01 to 2025-03-31, control and variant_b. */
function spokenArgument(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return value.map(String).join(' and ');
  if (value && typeof value === 'object' && 'start' in value && 'end' in value) {
    return `${String(value.start)} to ${String(value.end)}`;
  }
  return String(value);
}

interface BuiltTool {
  tool: AgentTool;
  feature: string;
  params: Param[];
}

function buildTool(kit: CategoryKit, feature: string, scenario: Scenario): BuiltTool {
  const params = toolParams(kit, feature, scenario.subject);
  const name = toolName(feature);
  return {
    feature,
    params,
    tool: {
      name,
      description: `${feature} ${kit.worksOn}. Returns ${returnsOf(kit, feature)}.`,
      input_schema: {
        type: 'object',
        properties: Object.fromEntries(params.map((param) => [param.name, param.schema])),
        required: [params[0]!.name],
      },
    },
  };
}

/**
 * "You are X, a sales agent that finds and enriches leads…": the listing's description, which
 * starts with what the agent does ("Finds…"), joined to the agent; any other as it is.
 */
function whoYouAre(agent: DemoAgent, kit: CategoryKit): string {
  const description = agent.description.trim();
  const verb = /^[A-Z][a-z-]*s\b/.exec(description)?.[0];
  if (verb) return `You are ${agent.name}, ${kit.noun} that ${verb.toLowerCase()}${description.slice(verb.length)}`;
  return `You are ${agent.name}, ${kit.noun}. ${description}`;
}

/** "a gpt-4o class model", "any chat model with tool calling". */
const modelPhrase = (family: string) => (/^(any|a|an)\s/i.test(family) ? family : `a ${family} model`);

function instructions(agent: DemoAgent, kit: CategoryKit, features: readonly string[]): string {
  return [
    whoYouAre(agent, kit),
    features.length ? `You are built for: ${features.join('; ')}.` : '',
    kit.guidance,
    'Call a tool whenever the answer depends on the user’s own data, and never invent numbers, names or results a tool did not return. When a request is outside what you do, say so in one sentence and suggest the closest thing you can help with.',
    'Lead with the outcome, then the steps or figures behind it; ask one clear question when something essential is missing.',
  ]
    .filter((line) => line !== '')
    .join('\n\n');
}

function exampleConversation(built: BuiltTool, scenario: Scenario, kit: CategoryKit) {
  const args = built.params
    .slice(0, 2)
    .map((param) => `${param.name} ${spokenArgument(param.example)}`)
    .join(' and ');
  return {
    title: built.feature,
    messages: [
      { role: 'user' as const, content: `${scenario.text} Where would you start?` },
      {
        role: 'assistant' as const,
        content:
          `I would start with "${built.feature}": I call ${built.tool.name} with ${args}, ` +
          `which gives back ${returnsOf(kit, built.feature)}. I will walk you through it before anything changes. ` +
          kit.followUp,
      },
    ],
  };
}

function readme(agent: DemoAgent, version: string, tools: readonly AgentTool[], config: AgentPackage['configuration']) {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    `# ${agent.name}`,
    agent.description,
    '## What it does',
    agent.features.map((feature) => `- ${feature}`).join('\n'),
    '## Tools',
    [
      '| Tool | What it does |',
      '| --- | --- |',
      ...tools.map((tool) => `| \`${tool.name}\` | ${cell(tool.description)} |`),
    ].join('\n'),
    '## Setting it up',
    [
      `1. Use \`instructions\` as the system prompt of ${modelPhrase(config.model_family)}.`,
      '2. Register each entry of `tools` as a tool: its `input_schema` is the JSON Schema of its arguments. Connect each one to the system it works on.',
      `3. Start with a temperature of ${config.temperature} and at most ${config.max_tokens} tokens per answer.`,
      '4. Try the conversations in `examples` to check the set-up.',
    ].join('\n'),
    `Package version ${version}, in the agent package format (${AGENT_PACKAGE_SCHEMA_PATH}).`,
  ]
    .filter((block) => block !== '')
    .join('\n\n');
}

/** The package of one version of a demo agent: the same input gives the same manifest. */
export function demoManifest(agent: DemoAgent, version: string): AgentPackage {
  const kit = KITS[agent.category] ?? GENERIC;
  const features = agent.features.map((feature) => feature.trim()).filter((feature) => feature !== '');
  const scenario = (index: number) => kit.scenarios[(hash(agent.name) + index) % kit.scenarios.length]!;
  const built = features.map((feature, index) => buildTool(kit, feature, scenario(index)));
  const configuration = {
    model_family: pick(MODEL_FAMILIES, agent.name),
    temperature: kit.temperature,
    max_tokens: kit.maxTokens,
  };
  // One conversation, two for an agent with four features or more (its first and its third).
  const shown = built.length >= 4 ? [0, 2] : built.length ? [0] : [];
  return {
    $schema: MANIFEST_SCHEMA,
    name: agent.name,
    version,
    category: agent.category,
    description: agent.description,
    instructions: instructions(agent, kit, features),
    tools: built.map((entry) => entry.tool),
    examples: shown.map((index) => exampleConversation(built[index]!, scenario(index), kit)),
    configuration,
    readme: readme(
      { ...agent, features },
      version,
      built.map((entry) => entry.tool),
      configuration,
    ),
  };
}

/** The manifest as the stored file: pretty-printed JSON with a final newline. */
export function demoManifestBytes(agent: DemoAgent, version: string): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(demoManifest(agent, version), null, 2)}\n`);
}

const CONCURRENCY = 8;

/**
 * Writes every demo package not written yet (file_size 0) and records its size. `service` must be
 * a service-role client. Returns how many files were written.
 */
export async function writeDemoPackages(service: SupabaseClient<Database>): Promise<number> {
  const pending = await service
    .from('agent_versions')
    .select('id, version, file_path, agents(name, description, category, features)')
    .eq('file_size', 0);
  if (pending.error) throw new Error(`Demo packages could not be listed: ${pending.error.message}`);
  // Only package paths (the database allows no other): the path goes into a service-role upload.
  const rows = pending.data.filter((row) => isPackagePath(row.file_path));
  let next = 0;
  async function worker() {
    while (next < rows.length) {
      const row = rows[next++]!;
      if (!row.agents) continue;
      const bytes = demoManifestBytes(row.agents, row.version);
      const upload = await service.storage
        .from(PACKAGES_BUCKET)
        .upload(row.file_path, bytes, { upsert: true, contentType: 'application/json' });
      if (upload.error) throw new Error(`Demo package ${row.file_path} could not be written: ${upload.error.message}`);
      const update = await service.from('agent_versions').update({ file_size: bytes.byteLength }).eq('id', row.id);
      if (update.error) throw new Error(`Demo package ${row.file_path} size not recorded: ${update.error.message}`);
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  return rows.filter((row) => row.agents).length;
}
