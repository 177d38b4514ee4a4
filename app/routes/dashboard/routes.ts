import type { RouteConfigEntry } from '@react-router/dev/routes';

/** The dashboard's routes (`/dashboard/*`), listed in app/routes.ts. */
export const dashboardRoutes: RouteConfigEntry[] = [];
