import { authenticateApi } from '~/server/api/auth.server';
import { readOwnAgent, updateListing } from '~/server/api/listings.server';
import { apiAnswer, apiError, methodNotAllowed, readApiBody } from '~/server/api/responses.server';
import type { Route } from './+types/agent';

/** `GET /api/v1/agents/:agentId`: one of the token owner's agents (ADR 074). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  return apiAnswer(() => readOwnAgent(caller, params.agentId));
}

/** `PATCH /api/v1/agents/:agentId`: changes the fields sent, under the listing form's rules. */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (request.method !== 'PATCH') return methodNotAllowed('GET, PATCH');
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  const body = await readApiBody(request);
  if (!body) return apiError(400, 'invalid_request', 'Send a JSON object, without null characters.');
  return apiAnswer(() => updateListing(caller, context, params.agentId, body));
}
