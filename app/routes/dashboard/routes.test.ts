import type { RouteConfigEntry } from '@react-router/dev/routes';
import { describe, expect, it } from 'vitest';
import { COMING_SOON_FILE, DASHBOARD_SECTIONS } from '~/lib/dashboard-nav';
import routes from '~/routes';
import { dashboardRoutes } from './routes';

/** Every route under the dashboard layout as `[full path, module]`, in order. */
function leaves(entries: RouteConfigEntry[], parent = ''): Array<[string, string]> {
  return entries.flatMap((entry) => {
    const path = entry.path ? `${parent}/${entry.path}` : parent;
    return entry.children ? leaves(entry.children, path) : [[path, entry.file]];
  });
}

describe('dashboard route list', () => {
  it('is the declaration: one route per section, same path, same module, same order', () => {
    expect(leaves(dashboardRoutes)).toEqual(
      DASHBOARD_SECTIONS.map((section) => [section.path, 'file' in section ? section.file : COMING_SOON_FILE]),
    );
  });

  it('sits under one layout, whose middleware guards every action', () => {
    expect(dashboardRoutes).toHaveLength(1);
    expect(dashboardRoutes[0]?.file).toBe('routes/dashboard/layout.tsx');
  });

  it('gives each Coming Soon section its own route id', () => {
    const ids = dashboardRoutes[0]?.children?.map((entry) => entry.id ?? entry.file) ?? [];
    expect(new Set(ids).size).toBe(DASHBOARD_SECTIONS.length);
  });

  it('is the only place the app routes /dashboard', () => {
    const outside = (routes as RouteConfigEntry[]).filter(
      (entry) => !dashboardRoutes.includes(entry) && entry.path?.startsWith('dashboard'),
    );
    expect(outside).toEqual([]);
  });
});
