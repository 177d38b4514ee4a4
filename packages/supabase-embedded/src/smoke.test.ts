import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedBackend } from './index';

describe('embedded backend', () => {
  it('opens in memory and answers through the gateway', async () => {
    const backend = await createEmbeddedBackend({ dataDir: null });
    afterAll(() => backend.close());
    expect(await backend.health()).toEqual({ ok: true, database: 'up' });
    const missingKey = await backend.fetch('http://localhost:3000/rest/v1/agents');
    expect(missingKey.status).toBe(401);
    expect(await missingKey.json()).toMatchObject({ message: 'No API key found in request' });
  });
});
