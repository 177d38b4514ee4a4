/**
 * The error rule, checked on every route module app/routes.ts lists (and the root): a page
 * (a module with a default component) whose loader or action can fail exports the shared
 * `ErrorBoundary`, so a failure renders inside the layout with the right status, never React
 * Router's default screen. A resource route (no component) answers with a status, JSON or a
 * redirect and has no boundary to export. A new route that forgets the boundary fails here.
 */
import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import routes from '~/routes';

function files(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [entry.file, ...files(entry.children ?? [])]);
}

const modules = [...new Set(['root.tsx', ...files(routes)])];
const loaded = await Promise.all(
  modules.map(async (file) => ({ file, module: (await import(`../${file}`)) as Record<string, unknown> })),
);

describe('route modules', () => {
  it('lists every module of app/routes.ts', () => {
    // A guard against an empty walk (e.g. the route config failing to load): the app has dozens.
    expect(modules.length).toBeGreaterThan(25);
    expect(modules).toContain('routes/agent.tsx');
    expect(modules).toContain('routes/dashboard/overview.tsx');
  });

  it.each(loaded.filter(({ module }) => typeof module.default === 'function'))(
    '$file: a page with a loader or action exports ErrorBoundary',
    ({ module }) => {
      if (typeof module.loader !== 'function' && typeof module.action !== 'function') return;
      expect(typeof module.ErrorBoundary).toBe('function');
    },
  );

  it.each(loaded.filter(({ module }) => module.default === undefined))(
    '$file: a resource route has a loader or action and no UI exports',
    ({ module }) => {
      expect(typeof module.loader === 'function' || typeof module.action === 'function').toBe(true);
      expect(module.ErrorBoundary).toBeUndefined();
      expect(module.meta).toBeUndefined();
    },
  );
});
