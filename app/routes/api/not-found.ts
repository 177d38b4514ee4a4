import { apiError } from '~/server/api/responses.server';

/** Any other path under `/api/v1`: the API's 404, as JSON (not the site's page). */
export const loader = () => apiError(404, 'not_found', 'There is no such API endpoint. See /api/v1/openapi.json.');
export const action = loader;
