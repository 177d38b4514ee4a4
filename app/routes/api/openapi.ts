import { apiJson } from '~/server/api/responses.server';
import { openApiDocument } from '~/server/api/openapi.server';

/** `GET /api/v1/openapi.json`: the API's OpenAPI 3.1 document, generated from its zod schemas (ADR 074). */
export const loader = () => apiJson(openApiDocument(), 200, { 'Cache-Control': 'public, max-age=300' });
