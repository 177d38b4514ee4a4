import { PageQuery } from '~/schemas/api';
import { authenticateApi } from '~/server/api/auth.server';
import { listOwnSales } from '~/server/api/sales.server';
import { apiAnswer, invalidRequest } from '~/server/api/responses.server';
import type { Route } from './+types/sales';

/** `GET /api/v1/sales`: the token owner's sales, newest first, with cursors (ADR 074). */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const caller = await authenticateApi(request, context, 'sales:read');
  if (caller instanceof Response) return caller;
  const query = PageQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!query.success) return invalidRequest(query.error);
  return apiAnswer(() => listOwnSales(caller, query.data));
}
