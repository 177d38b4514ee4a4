import { type RouteConfig, index, route } from '@react-router/dev/routes';
import { dashboardRoutes } from './routes/dashboard/routes';

export default [
  index('routes/home.tsx'),
  route('marketplace', 'routes/marketplace.tsx'),
  route('agent/:agentId', 'routes/agent.tsx', [
    route('checkout', 'routes/agent-checkout.tsx'), // the order summary, over the agent page (ADR 061)
  ]),
  route('agent/:agentId/download', 'routes/agent-download.ts'), // the package file (resource route)
  route('agent/:agentId/review', 'routes/agent-review.tsx'),
  route('cart', 'routes/cart.tsx'), // the cart and its checkout: one order, one payment (ADR 072)
  route('categories', 'routes/categories.tsx'),
  route('become-seller', 'routes/become-seller.tsx'),
  route('sellers/:username', 'routes/seller.tsx'),
  route('profile', 'routes/profile.tsx'),
  route('profile/two-factor', 'routes/profile-two-factor.tsx'), // set up / turn off TOTP (ADR 016)
  route('profile/export', 'routes/profile-export.ts'), // Export Data: the user's data as a JSON download

  // Footer and information pages.
  route('pricing', 'routes/pages/pricing.tsx'),
  route('docs', 'routes/pages/docs.tsx'),
  route('help', 'routes/pages/help.tsx'),
  route('contact', 'routes/pages/contact.tsx'),
  route('community', 'routes/pages/community.tsx'),
  route('status', 'routes/pages/status.tsx'),
  route('api', 'routes/pages/api.tsx'),
  // The policies, versioned in the database (ADR 069): one module, one route id each.
  route('terms', 'routes/pages/policy.tsx', { id: 'policy-terms' }),
  route('privacy', 'routes/pages/policy.tsx', { id: 'policy-privacy' }),
  route('seller-policy', 'routes/pages/policy.tsx', { id: 'policy-seller' }),
  route('policies/accept', 'routes/policies-accept.tsx'), // accept updated policies before buying or listing
  route('cookies', 'routes/pages/cookies.tsx'),

  ...dashboardRoutes,

  // Resource routes (no UI).
  route('resources/theme', 'routes/resources/theme.ts'),
  route('resources/newsletter', 'routes/resources/newsletter.ts'),
  route('artwork/:category/:seed/:file', 'routes/resources/artwork.ts'), // generated agent pictures
  route('schemas/agent-package/v1.json', 'routes/resources/agent-package-schema.ts'), // the package format (ADR 058)
  route('search/suggestions', 'routes/resources/search-suggestions.ts'), // suggestions as you type, JSON (ADR 063)
  // The JSON API (ADRs 073, 074): licence checks (public), and the seller API with API tokens.
  route('api/v1/licenses/verify', 'routes/api/licenses-verify.ts'),
  route('api/v1/agents', 'routes/api/agents.ts'),
  route('api/v1/agents/:agentId', 'routes/api/agent.ts'),
  route('api/v1/agents/:agentId/versions', 'routes/api/agent-versions.ts'),
  route('api/v1/sales', 'routes/api/sales.ts'),
  route('api/v1/earnings', 'routes/api/earnings.ts'),
  route('api/v1/openapi.json', 'routes/api/openapi.ts'),
  route('api/v1/*', 'routes/api/not-found.ts'),
  route('webhooks/stripe', 'routes/webhooks/stripe.ts'), // Stripe's signed events (ADR 019); 404 unless configured
  route('auth/sign-in', 'routes/auth/sign-in.tsx'),
  route('auth/sign-up', 'routes/auth/sign-up.tsx'),
  route('auth/forgot-password', 'routes/auth/forgot-password.tsx'),
  route('auth/reset-password', 'routes/auth/reset-password.tsx'),
  route('auth/google', 'routes/auth/google.ts'),
  route('auth/callback', 'routes/auth/callback.ts'),
  route('auth/sign-out', 'routes/auth/sign-out.ts'),
  route('auth/two-factor', 'routes/auth/two-factor.tsx'), // the code after the password (ADR 016)
  route('setup', 'routes/setup.tsx'), // the first administrator, through the one-time link in the server log

  route('__perf/fixture', 'routes/perf-fixture.tsx'), // bench baseline F; 404 unless ENABLE_PERF_FIXTURE=true
  route('__dev/renewals', 'routes/dev-renewals.ts'), // e2e clock for renewals; 404 unless ENABLE_DEV_TOOLS=true
  // Unknown URLs: "Page not found" inside the shared layout, status 404.
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
