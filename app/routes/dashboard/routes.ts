import { index, layout, prefix, route, type RouteConfigEntry } from '@react-router/dev/routes';

/**
 * The dashboard's routes (`/dashboard/*`), listed in app/routes.ts. The layout guards sign-in
 * and draws the shell; every page guards its own permission (app/lib/dashboard-nav.ts). Pages
 * not built yet share the 'Coming Soon' module, one route id each.
 */
const comingSoon = (path: string) =>
  route(path, 'routes/dashboard/coming-soon.tsx', { id: `routes/dashboard/coming-soon/${path}` });

export const dashboardRoutes: RouteConfigEntry[] = [
  ...prefix('dashboard', [
    layout('routes/dashboard/layout.tsx', [
      index('routes/dashboard/overview.tsx'),
      route('membership', 'routes/dashboard/membership.tsx'),
      route('billing', 'routes/dashboard/billing.tsx'),
      comingSoon('collection'),
      comingSoon('purchases'),
      comingSoon('agents'),
      comingSoon('upload'),
      comingSoon('analytics'),
      comingSoon('earnings'),
      comingSoon('messages'),
      comingSoon('reviews'),
      comingSoon('users'),
      comingSoon('moderation'),
      route('system', 'routes/dashboard/system.tsx'),
      comingSoon('reports'),
      comingSoon('platform-analytics'),
      comingSoon('database'),
      comingSoon('disputes'),
      comingSoon('policies'),
    ]),
  ]),
];
