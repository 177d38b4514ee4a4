/**
 * The agent package format, version 1: what a package's manifest holds (a JSON package is the
 * manifest; a ZIP package carries it as agent.json at its root). Defined once, here, as a zod
 * schema: the upload checks every package with it (app/server/agent-package.server.ts) and the
 * published JSON Schema at /schemas/agent-package/v1.json is generated from it by zod's
 * `z.toJSONSchema`, so the two cannot disagree. Objects are strict (an unknown field is refused,
 * `additionalProperties: false`) except a tool's input schema, which is JSON Schema itself.
 * docs/decisions/058-the-package-format-is-a-published-schema.md.
 */
import { z } from 'zod';
import { AGENT_PACKAGE_SCHEMA_PATH } from './agent-package-format';

const SEMVER = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;
const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/**
 * The path itself, or its absolute URL on the marketplace a seller publishes to (any origin: the
 * marketplace's domain may change). The origin is a plain host name or [IPv6 address] and port,
 * nothing else: no user name, no backslash (a URL parser reads `https://a\b/…` as host `a`, path
 * `/b/…`), so the URL's path is exactly the schema's, with no query or fragment.
 */
const SCHEMA_REFERENCE = new RegExp(
  `^(https?://([A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?)?${AGENT_PACKAGE_SCHEMA_PATH.replaceAll('.', '\\.')}$`,
);

const text = (max: number) => z.string().trim().min(1).max(max);

/** A tool's parameters: a JSON Schema of type object (as chat models with tool calling take it). */
const InputSchema = z
  .looseObject({
    type: z.literal('object'),
    properties: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    required: z.array(z.string()).optional(),
  })
  .describe('The JSON Schema (type "object") of the arguments the model passes to the tool.');

const Tool = z.strictObject({
  name: z
    .string()
    .regex(TOOL_NAME, 'expected a name of letters, digits, _ or - starting with a letter, at most 64 characters')
    .describe('What the model calls the tool: letters, digits, _ or -, starting with a letter.'),
  description: text(2000).describe('What the tool does and when to use it.'),
  input_schema: InputSchema,
});

const Message = z.strictObject({
  role: z.enum(['user', 'assistant']).describe('Who speaks: "user" or "assistant".'),
  content: text(10_000).describe('What they say.'),
});

const Example = z.strictObject({
  title: text(200).describe('What the conversation shows.'),
  messages: z.array(Message).min(2).max(20).describe('The conversation, in order.'),
});

const Configuration = z.strictObject({
  model_family: text(80).describe(
    'The models the agent is made for, e.g. "gpt-4o class", "claude-3.5 class", "any chat model with tool calling".',
  ),
  temperature: z.number().min(0).max(2).describe('Sampling temperature, 0 to 2.'),
  max_tokens: z.int().min(1).max(200_000).describe('The longest answer, in tokens.'),
});

export const AgentPackageSchema = z
  .strictObject({
    $schema: z
      .string()
      .regex(SCHEMA_REFERENCE, `expected ${AGENT_PACKAGE_SCHEMA_PATH} or its URL on the marketplace`)
      .optional()
      .describe(`This format: ${AGENT_PACKAGE_SCHEMA_PATH} (or its absolute URL).`),
    name: text(120).describe("The agent's name."),
    version: z
      .string()
      .regex(SEMVER, 'expected a version like 1.0.0 (semantic versioning)')
      .describe('The version of this package, e.g. 1.2.0.'),
    category: text(60).describe('Its marketplace category, e.g. Sales.'),
    description: text(5000).describe('What the agent does, in a few sentences.'),
    instructions: text(50_000).describe('The system prompt: who the agent is and how it works.'),
    tools: z.array(Tool).max(64).describe('The tools the agent calls (may be empty).'),
    examples: z.array(Example).max(10).describe('Example conversations (may be empty).'),
    configuration: Configuration.describe('How to run it.'),
    readme: text(100_000).describe('Setup and usage notes, in Markdown.'),
  })
  .meta({
    title: 'AgentMarket agent package, version 1',
    description: 'The manifest of an agent package: a JSON file, or agent.json at the root of a ZIP archive.',
  });

export type AgentPackage = z.infer<typeof AgentPackageSchema>;
export type AgentTool = AgentPackage['tools'][number];
export type AgentMessage = AgentPackage['examples'][number]['messages'][number];

let generated: Record<string, unknown> | null = null;

/** The format as JSON Schema (draft 2020-12), generated from the zod schema once. */
function generatedJsonSchema(): Record<string, unknown> {
  generated ??= z.toJSONSchema(AgentPackageSchema, { io: 'input', target: 'draft-2020-12' });
  return generated;
}

/** The published JSON Schema, its `$id` the schema's URL on `origin` (the app's own). */
export function agentPackageJsonSchema(origin: string): Record<string, unknown> {
  const { $schema, ...rest } = generatedJsonSchema();
  return { $schema, $id: new URL(AGENT_PACKAGE_SCHEMA_PATH, origin).href, ...rest };
}

// ---------------------------------------------------------------------------------------------
// Problems, each naming its field: "tools[0].input_schema: expected an object"
// ---------------------------------------------------------------------------------------------

/** `['tools', 0, 'input_schema']` → `tools[0].input_schema`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((joined, key) => {
    if (typeof key === 'number') return `${joined}[${key}]`;
    const name = String(key);
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) return `${joined}[${JSON.stringify(name)}]`;
    return joined ? `${joined}.${name}` : name;
  }, '');
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'a list',
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

const quoted = (values: readonly unknown[]) => values.map((value) => JSON.stringify(value)).join(' or ');

function describeIssue(issue: z.core.$ZodIssue): string[] {
  const where = fieldPath(issue.path);
  const at = (what: string, field = where) => `${field || 'the manifest'}: ${what}`;
  switch (issue.code) {
    case 'invalid_type':
      return [
        at(issue.input === undefined ? 'is required' : `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}`),
      ];
    case 'invalid_value':
      return [at(issue.input === undefined ? 'is required' : `expected ${quoted(issue.values)}`)];
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string') {
        return [at(minimum <= 1 ? 'must not be empty' : `must be at least ${minimum} characters`)];
      }
      if (issue.origin === 'array') return [at(`must have at least ${minimum} ${minimum === 1 ? 'entry' : 'entries'}`)];
      return [at(`must be at least ${minimum}`)];
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return [at(`must be at most ${maximum.toLocaleString('en-US')} characters`)];
      if (issue.origin === 'array') return [at(`must have at most ${maximum} entries`)];
      return [at(`must be at most ${maximum.toLocaleString('en-US')}`)];
    }
    case 'unrecognized_keys':
      return issue.keys.map((key) => at('is not a field of the format', fieldPath([...issue.path, key])));
    default:
      return [at(issue.message)];
  }
}

export type PackageCheck = { ok: true; value: AgentPackage } | { ok: false; problems: string[] };

/**
 * How big a manifest may be as a tree: values (objects, arrays and their members) and nesting.
 * A real package has a few hundred values; a checked tree of hundreds of thousands took seconds
 * of the server's one thread, and zod's error list for one overflowed the stack.
 */
export const PACKAGE_LIMITS = { values: 20_000, depth: 32 };
const TOO_COMPLEX = `the manifest is too large a tree: at most ${PACKAGE_LIMITS.values.toLocaleString('en-US')} values, nested at most ${PACKAGE_LIMITS.depth} deep`;

/** Whether `value` is within PACKAGE_LIMITS, walked without recursion (a deep tree is no stack risk). */
function withinLimits(value: unknown): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let count = 0;
  while (stack.length > 0) {
    const next = stack.pop()!;
    count += 1;
    if (count > PACKAGE_LIMITS.values || next.depth > PACKAGE_LIMITS.depth) return false;
    if (next.value !== null && typeof next.value === 'object') {
      for (const member of Object.values(next.value)) stack.push({ value: member, depth: next.depth + 1 });
    }
  }
  return true;
}

/** Checks a parsed manifest against the format; each problem names its field. */
export function checkAgentPackage(value: unknown): PackageCheck {
  if (!withinLimits(value)) return { ok: false, problems: [TOO_COMPLEX] };
  const parsed = AgentPackageSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problems: parsed.error.issues.flatMap(describeIssue) };
}

const PROBLEMS_SHOWN = 5;

/** The problems as one message for the form, the first five named. */
export function packageProblemsMessage(problems: readonly string[], file?: string): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).join('; ');
  const more = problems.length > PROBLEMS_SHOWN ? ` (and ${problems.length - PROBLEMS_SHOWN} more)` : '';
  return `The package does not follow the agent package format${file ? ` (${file})` : ''}: ${shown}${more}.`;
}

// ---------------------------------------------------------------------------------------------
// What the agent page shows of a package before it is bought
// ---------------------------------------------------------------------------------------------

export interface PackageInside {
  version: string;
  modelFamily: string;
  tools: { name: string; description: string }[];
  /** The first example conversation, if the package has one. */
  example: { title: string; messages: AgentMessage[] } | null;
}

/** What is shown of a package: never its instructions or README, which buyers pay for. */
export function packageInside(manifest: AgentPackage): PackageInside {
  const example = manifest.examples[0];
  return {
    version: manifest.version,
    modelFamily: manifest.configuration.model_family,
    tools: manifest.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    example: example ? { title: example.title, messages: example.messages } : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The fields, for the Docs page (read from the generated JSON Schema: the same words)
// ---------------------------------------------------------------------------------------------

export interface PackageField {
  field: string;
  description: string;
  required: boolean;
}

type JsonSchemaNode = {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  items?: JsonSchemaNode;
};

/** Every field of the format with its description, nested ones as `tools[].name`. */
export function packageFields(): PackageField[] {
  const fields: PackageField[] = [];
  const walk = (node: JsonSchemaNode, prefix: string) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const field = `${prefix}${name}`;
      const described = child.description ?? child.items?.description ?? '';
      fields.push({ field, description: described, required: node.required?.includes(name) ?? false });
      if (field.endsWith('input_schema')) continue; // JSON Schema itself, not the format's fields
      if (child.type === 'object') walk(child, `${field}.`);
      if (child.type === 'array' && child.items?.type === 'object') walk(child.items, `${field}[].`);
    }
  };
  walk(generatedJsonSchema() as JsonSchemaNode, '');
  return fields;
}
