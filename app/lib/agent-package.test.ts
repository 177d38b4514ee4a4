/**
 * The agent package format: good and bad packages, each problem naming its field, and the
 * published JSON Schema generated from the same zod schema.
 */
import { describe, expect, it } from 'vitest';
import { validPackage } from '../../tests/support/packages';
import {
  agentPackageJsonSchema,
  checkAgentPackage,
  fieldPath,
  packageFields,
  packageInside,
  packageProblemsMessage,
  type AgentPackage,
} from '~/lib/agent-package';

const problems = (value: unknown) => {
  const checked = checkAgentPackage(value);
  return checked.ok ? [] : checked.problems;
};

describe('checkAgentPackage', () => {
  it('accepts a package with every field, with or without $schema, with no tools or examples', () => {
    expect(checkAgentPackage(validPackage())).toMatchObject({ ok: true, value: { name: 'Quote Checker' } });
    for (const change of [
      (value: Record<string, unknown>) => delete value.$schema,
      (value: Record<string, unknown>) => (value.$schema = 'https://market.example/schemas/agent-package/v1.json'),
      (value: Record<string, unknown>) => Object.assign(value, { tools: [], examples: [] }),
      (value: Record<string, unknown>) => (value.version = '2.10.0-beta.1+build.7'),
    ]) {
      expect(problems(validPackage(change))).toEqual([]);
    }
  });

  it('names the field of every problem', () => {
    expect(
      problems(
        validPackage((value) => {
          const [tool] = value.tools as Record<string, unknown>[];
          tool!.input_schema = 'quote_id: string';
          tool!.name = '1st tool';
          value.examples = [{ title: 'Hi', messages: [{ role: 'system', content: ' ' }] }];
          value.configuration = { model_family: 'gpt-4o class', temperature: 3, max_tokens: 1.5 };
          value.version = 'v1';
          value.instructions = undefined;
          value.prompts = [];
        }),
      ),
    ).toEqual([
      'version: expected a version like 1.0.0 (semantic versioning)',
      'instructions: is required',
      'tools[0].name: expected a name of letters, digits, _ or - starting with a letter, at most 64 characters',
      'tools[0].input_schema: expected an object',
      'examples[0].messages[0].role: expected "user" or "assistant"',
      'examples[0].messages[0].content: must not be empty',
      'examples[0].messages: must have at least 2 entries',
      'configuration.temperature: must be at most 2',
      'configuration.max_tokens: expected a whole number',
      'prompts: is not a field of the format',
    ]);
  });

  it('refuses a tool whose input schema is not of type object, and a $schema of another format', () => {
    expect(
      problems(
        validPackage((value) => {
          (value.tools as Record<string, unknown>[])[0]!.input_schema = { type: 'string' };
          value.$schema = 'https://agentmarket.dev/schemas/agent-package/v1';
        }),
      ),
    ).toEqual([
      '$schema: expected /schemas/agent-package/v1.json or its URL on the marketplace',
      'tools[0].input_schema.type: expected "object"',
    ]);
  });

  it('takes as $schema the schema’s path, or that path on any http(s) origin, and nothing else', () => {
    for (const $schema of [
      '/schemas/agent-package/v1.json',
      'https://market.example/schemas/agent-package/v1.json',
      'http://localhost:3000/schemas/agent-package/v1.json',
      'http://[::1]:3000/schemas/agent-package/v1.json',
    ]) {
      expect(problems(validPackage((value) => (value.$schema = $schema))), $schema).toEqual([]);
    }
    for (const $schema of [
      'schemas/agent-package/v1.json',
      '/schemas/agent-package/v2.json',
      '/schemas/agent-package/v1.json/',
      'https://market.example/other/schemas/agent-package/v1.json',
      'https://market.example/schemas/agent-package/v1.json?v=2',
      'https://market.example/schemas/agent-package/v1.json#top',
      // A URL parser reads these as another path (`/x/schemas/…`) or with a user name.
      'https://market.example\\x/schemas/agent-package/v1.json',
      'https://seller:secret@market.example/schemas/agent-package/v1.json',
      '//market.example/schemas/agent-package/v1.json',
      'ftp://market.example/schemas/agent-package/v1.json',
    ]) {
      expect(problems(validPackage((value) => (value.$schema = $schema))), $schema).toEqual([
        '$schema: expected /schemas/agent-package/v1.json or its URL on the marketplace',
      ]);
    }
  });

  it('says so when the manifest is not an object at all', () => {
    expect(problems([])).toEqual(['the manifest: expected an object']);
    expect(problems('{}')).toEqual(['the manifest: expected an object']);
  });

  it('joins the first five problems into the form’s message', () => {
    expect(packageProblemsMessage(['a: x', 'b: y'])).toBe(
      'The package does not follow the agent package format: a: x; b: y.',
    );
    expect(packageProblemsMessage(['a: 1', 'b: 2', 'c: 3', 'd: 4', 'e: 5', 'f: 6', 'g: 7'], 'agent.json')).toBe(
      'The package does not follow the agent package format (agent.json): a: 1; b: 2; c: 3; d: 4; e: 5 (and 2 more).',
    );
  });

  it('writes paths as they are read', () => {
    expect(fieldPath(['tools', 0, 'input_schema'])).toBe('tools[0].input_schema');
    expect(fieldPath(['$schema'])).toBe('$schema');
    expect(fieldPath(['tools', 1, 'input_schema', 'properties', 'my field'])).toBe(
      'tools[1].input_schema.properties["my field"]',
    );
  });
});

describe('the published JSON Schema', () => {
  it('is generated from the same schema, its $id on the app’s own origin', () => {
    const schema = agentPackageJsonSchema('http://localhost:3000');
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'http://localhost:3000/schemas/agent-package/v1.json',
      title: 'AgentMarket agent package, version 1',
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['name', 'version', 'instructions', 'tools', 'configuration', 'readme']),
    });
    expect(Object.keys(schema)[1]).toBe('$id');
    expect(agentPackageJsonSchema('https://market.example').$id).toBe(
      'https://market.example/schemas/agent-package/v1.json',
    );
  });

  it('lists every field with its description for the Docs page', () => {
    const fields = packageFields();
    expect(fields.map((field) => field.field)).toEqual([
      '$schema',
      'name',
      'version',
      'category',
      'description',
      'instructions',
      'tools',
      'tools[].name',
      'tools[].description',
      'tools[].input_schema',
      'examples',
      'examples[].title',
      'examples[].messages',
      'examples[].messages[].role',
      'examples[].messages[].content',
      'configuration',
      'configuration.model_family',
      'configuration.temperature',
      'configuration.max_tokens',
      'readme',
    ]);
    expect(fields.every((field) => field.description !== '')).toBe(true);
    expect(fields.find((field) => field.field === '$schema')?.required).toBe(false);
    expect(fields.find((field) => field.field === 'readme')?.required).toBe(true);
  });
});

describe('packageInside', () => {
  it('shows the tools, the model family and the first example, never the instructions or README', () => {
    const inside = packageInside(validPackage() as AgentPackage);
    expect(inside).toEqual({
      version: '1.0.0',
      modelFamily: 'gpt-4o class',
      tools: [{ name: 'check_quote', description: 'Checks one quote.' }],
      example: {
        title: 'A quote with a wrong discount',
        messages: [
          { role: 'user', content: 'Check quote Q-12.' },
          { role: 'assistant', content: 'Quote Q-12 gives 30% where the limit is 20%.' },
        ],
      },
    });
    expect(JSON.stringify(inside)).not.toMatch(/price list|# Quote Checker/);
  });
});
