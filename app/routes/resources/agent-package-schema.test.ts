/**
 * `/schemas/agent-package/v1.json`: the published agent package format, a public cacheable JSON
 * Schema whose `$id` is its own URL on the app's origin.
 */
import { describe, expect, it } from 'vitest';
import { appOrigin } from '~/server/auth.server';
import { loader } from './agent-package-schema';

describe('GET /schemas/agent-package/v1.json', () => {
  it('answers the JSON Schema, its $id on the app’s own origin, cacheable by anyone', async () => {
    const request = new Request('http://localhost:3000/schemas/agent-package/v1.json');
    const response = loader({ request } as unknown as Parameters<typeof loader>[0]);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('application/schema+json; charset=utf-8');
    expect(response.headers.get('Cache-Control')).toBe('public, max-age=3600');
    expect(response.headers.get('Access-Control-Allow-Origin')).toBe('*');
    const schema = (await response.json()) as Record<string, unknown>;
    expect(schema.$id).toBe(`${appOrigin(request)}/schemas/agent-package/v1.json`);
    expect(new URL(schema.$id as string).hostname).toBe('localhost');
    expect(schema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { tools: { type: 'array' }, configuration: { type: 'object' } },
    });
  });
});
