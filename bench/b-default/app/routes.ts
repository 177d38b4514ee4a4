import { type RouteConfig, index, route } from '@react-router/dev/routes';

/**
 * One page under the root, as the template has it. With B_DEFAULT_ROUTES=N (the benchmark's
 * second B), N routes under the root, the others on the same module, so React Router matches and
 * describes as many routes per request as in the marketplace (ADR 030).
 */
const total = Number(process.env.B_DEFAULT_ROUTES ?? 1);

export default [
  index('routes/home.tsx'),
  ...Array.from({ length: Math.max(0, total - 1) }, (_, n) =>
    route(`/route-${n}/:id`, 'routes/home.tsx', { id: `route-${n}` }),
  ),
] satisfies RouteConfig;
