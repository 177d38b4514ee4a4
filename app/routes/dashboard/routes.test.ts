import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import { DASHBOARD_SECTIONS, findSection } from '~/lib/dashboard-nav';
import routes from '~/routes';
import { DASHBOARD_SUBPAGES, dashboardRoutes } from './routes';

/** Every route under the dashboard layout as `[full path, module]`, in order. */
function leaves(entries: RouteConfigEntry[], parent = ''): Array<[string, string]> {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    return entry.children ? leaves(entry.children, path) : [[path, entry.file]];
  });
}

describe('dashboard route list', () => {
  it('is the declaration: one route per section, same path, same module, same order, then the sub-pages', () => {
    expect(leaves(dashboardRoutes)).toEqual([
      ...DASHBOARD_SECTIONS.map((section) => [section.path, section.file]),
      ...leaves(DASHBOARD_SUBPAGES, '/dashboard'),
    ]);
  });

  it('puts every sub-page inside a section, whose permission guards it', () => {
    for (const [path] of leaves(DASHBOARD_SUBPAGES, '/dashboard')) {
      expect(findSection(path.replace(/:[^/]+/g, 'x'))?.path, path).not.toBe('/dashboard');
      expect(findSection(path.replace(/:[^/]+/g, 'x'))?.permission, path).toBeTruthy();
    }
  });

  it('sits under one layout, whose middleware guards every action', () => {
    expect(dashboardRoutes).toHaveLength(1);
    expect(dashboardRoutes[0]?.file).toBe('routes/dashboard/layout.tsx');
  });

  it('gives each route its own id, also where sections and sub-pages share a module', () => {
    const ids = dashboardRoutes[0]?.children?.map((entry) => entry.id ?? entry.file) ?? [];
    expect(new Set(ids).size).toBe(DASHBOARD_SECTIONS.length + DASHBOARD_SUBPAGES.length);
  });

  it('is the only place the app routes /dashboard', () => {
    const outside = (routes as RouteConfigEntry[]).filter(
      (entry) => !dashboardRoutes.includes(entry) && entry.path?.startsWith('dashboard'),
    );
    expect(outside).toEqual([]);
  });
});
