import { PageQuery } from '~/schemas/api';
import { authenticateApi } from '~/server/api/auth.server';
import { createDraft, listOwnAgents } from '~/server/api/listings.server';
import { apiAnswer, apiError, invalidRequest, methodNotAllowed, readApiBody } from '~/server/api/responses.server';
import type { Route } from './+types/agents';

/** `GET /api/v1/agents`: the token owner's agents, newest first, with cursors (ADR 074). */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  const query = PageQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return invalidRequest(query.error);
  return apiAnswer(() => listOwnAgents(caller, query.data));
}

/** `POST /api/v1/agents`: a new draft listing, under the listing form's rules. */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('GET, POST');
  const caller = await authenticateApi(request, context, 'listings:write');
  if (caller instanceof Response) return caller;
  const body = await readApiBody(request);
  if (!body) return apiError(400, 'invalid_request', 'Send a JSON object, without null characters.');
  return apiAnswer(() => createDraft(caller, context, body));
}
