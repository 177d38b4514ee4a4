import { agentPackageJsonSchema } from '~/lib/agent-package';
import { appOrigin } from '~/server/auth.server';
import type { Route } from './+types/agent-package-schema';

/**
 * `/schemas/agent-package/v1.json`: the agent package format as JSON Schema (draft 2020-12),
 * generated from the zod schema the upload checks with (app/lib/agent-package.ts); its `$id` is
 * this URL on the app's own origin (ADR 058). Public and the same for everyone: cached an hour
 * like the other public files, and readable from any site (an editor or a validator in a browser).
 */
export function loader({ request }: Route.LoaderArgs) {
  return new Response(`${JSON.stringify(agentPackageJsonSchema(appOrigin(request)), null, 2)}\n`, {
    headers: {
      'Content-Type': 'application/schema+json; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'Access-Control-Allow-Origin': '*',
    },
  });
}
