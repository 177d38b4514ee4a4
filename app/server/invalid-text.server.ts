/**
 * Text with a NUL character (U+0000) cannot be stored in Postgres: it used to fail deep in a
 * query and answer 503/500. It is refused once, here, where the app's input is parsed: the
 * first root middleware looks at the URL and at form bodies before any loader or action runs,
 * and answers 400 with a clear message (the error page).
 */
import { data } from 'react-router';

export const INVALID_TEXT_MESSAGE = 'Text cannot contain null characters (U+0000). Remove them and try again.';

const FORM_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i;

export async function rejectInvalidText({ request }: { request: Request }): Promise<void> {
  const url = new URL(request.url);
  // Raw NULs cannot appear in a URL; encoded ones decode to U+0000 in params and path segments.
  if (/%00/i.test(url.pathname + url.search)) throw invalidText();
  if (request.method === 'GET' || request.method === 'HEAD') return;
  if (!FORM_TYPES.test(request.headers.get('content-type') ?? '')) return;
  // The body was read in full by the HTTP layer (server/body-limit.ts): a clone costs a copy.
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  if (!form) return; // a malformed body is the action's own 400
  for (const [name, value] of form) {
    if (name.includes('\0') || (typeof value === 'string' && value.includes('\0'))) throw invalidText();
  }
}

function invalidText() {
  return data(INVALID_TEXT_MESSAGE, { status: 400, statusText: 'Bad Request' });
}
