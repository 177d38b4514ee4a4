import { authenticateApi } from '~/server/api/auth.server';
import { listVersions, publishVersion } from '~/server/api/listings.server';
import { apiAnswer, apiError, methodNotAllowed, readApiBody } from '~/server/api/responses.server';
import type { Route } from './+types/agent-versions';

/** `GET /api/v1/agents/:agentId/versions`: the agent's versions, newest first (ADR 074). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  return apiAnswer(() => listVersions(caller, params.agentId));
}

/** `POST /api/v1/agents/:agentId/versions` (multipart): a new version with its package. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('GET, POST');
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  const body = await readApiBody(request);
  if (!body) return apiError(400, 'invalid_request', 'Send multipart/form-data with version, notes and package.');
  return apiAnswer(() => publishVersion(caller, context, request, params.agentId, body));
}
