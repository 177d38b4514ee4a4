import { authenticateApi } from '~/server/api/auth.server';
import { ownEarnings } from '~/server/api/sales.server';
import { apiAnswer } from '~/server/api/responses.server';
import type { Route } from './+types/earnings';

/** `GET /api/v1/earnings`: the token owner's earnings, overall and per agent (ADR 074). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const caller = await authenticateApi(request, context, 'sales:read');
  if (caller instanceof Response) return caller;
  return apiAnswer(() => ownEarnings(caller));
}
