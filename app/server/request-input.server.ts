/**
 * The app's input, checked once before any loader or action runs (the first root middleware):
 *
 * - Text with a NUL character (U+0000) cannot be stored in Postgres: it used to fail deep in a
 *   query and answer 503/500. A `%00` in the URL or a NUL in any form field is a 400.
 * - Every action reads a form (`request.formData()`), which throws on a body that is not one: a
 *   missing or other content type, a broken multipart body. That used to be a 500; it is a 400
 *   here, for every action at once. A POST with no body and no content type is an empty form. Only the routes that read a raw body (Stripe's webhook) are
 *   left to do so (Stripe's webhook, the JSON API).
 * (Bytes and the number of fields are capped before this, by server/body-limit.ts.)
 *
 * Each answer is the error page with its message (docs/security/body-limits.md).
 */
import { data } from 'react-router';

export const INVALID_TEXT_MESSAGE = 'Text cannot contain null characters (U+0000). Remove them and try again.';
export const UNREADABLE_FORM_MESSAGE = 'This form could not be read. Please reload the page and try again.';

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i;
/**
 * Routes whose action reads the raw body itself, not a form: Stripe's webhook (a signed payload)
 * and the JSON API (`/api/v1`, JSON or forms, with its own JSON errors; app/server/api).
 */
const RAW_BODY_PATHS = /^(\/webhooks\/stripe(\.data)?\/?$|\/api\/v1\/)/;

export async function checkRequestInput({ request }: { request: Request }): Promise<void> {
  const url = new URL(request.url);
  // Raw NULs cannot appear in a URL; encoded ones decode to U+0000 in params and path segments.
  if (/%00/i.test(url.pathname + url.search)) throw refuse(INVALID_TEXT_MESSAGE);
  if (request.method === 'GET' || request.method === 'HEAD' || RAW_BODY_PATHS.test(url.pathname)) return;
  const contentType = request.headers.get('content-type');
  if (!contentType && (await request.clone().arrayBuffer()).byteLength === 0) {
    // A POST with no body at all (a `fetch` or curl sign-out) is an empty form, not an unreadable one.
    const empty = new FormData();
    Object.defineProperty(request, 'formData', { value: () => Promise.resolve(empty) });
    return;
  }
  if (!FORM_TYPES.test(contentType ?? '')) throw refuse(UNREADABLE_FORM_MESSAGE);
  // The body was read in full by the HTTP layer (server/body-limit.ts). It is parsed once, here,
  // and the action's `request.formData()` gets this same form: a 10 MB upload is not parsed
  // (and held) twice. React Router hands the handlers this very request (v8_passThroughRequests).
  const form = await request.formData().catch(() => null);
  if (!form) throw refuse(UNREADABLE_FORM_MESSAGE);
  Object.defineProperty(request, 'formData', { value: () => Promise.resolve(form) });
  for (const [name, value] of form) {
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw refuse(INVALID_TEXT_MESSAGE);
  }
}

function refuse(message: string) {
  return data(message, { status: 400, statusText: 'Bad Request' });
}
