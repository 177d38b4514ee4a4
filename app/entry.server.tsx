import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { renderToPipeableStream } from 'react-dom/server';
import {
  isRouteErrorResponse,
  ServerRouter,
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
} from 'react-router';
import { NonceProvider } from '~/components/nonce';
import { InlineStylesheetProvider } from '~/components/stylesheet';
import { nonceContext } from '~/context';
import { env, isProduction } from '~/server/env.server';
import stylesheetHref from '~/styles/app.css?url';
import { contentSecurityPolicy } from '../server/security';

export const streamTimeout = 5_000;

/**
 * The built stylesheet's text, written into every document (ADR 029); read from where server.js
 * serves the assets. The development server serves the stylesheet itself: linked there.
 */
const stylesheetText = import.meta.env.PROD ? readFileSync(`build/client${stylesheetHref}`, 'utf8') : null;

/**
 * Errors worth a line in the server log: not a request the client gave up on, and not the
 * router's own 4xx answers (a POST to a page without an action is a 405 the visitor sees as
 * such; before this, React Router printed its stack trace for each one).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
};

/**
 * Legitimate form targets besides the app: hosted Supabase's origin (OAuth starts there) and
 * Google's sign-in page. "Continue with Google" without JavaScript is a form post answered by
 * redirects to them, and browsers apply `form-action` to every redirect of a form submission.
 */
const FORM_ORIGINS = [
  ...(env.SUPABASE_URL ? [new URL(env.SUPABASE_URL).origin] : []),
  new URL(env.GOOGLE_ISSUER_URL ?? 'https://accounts.google.com').origin,
];

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  responseHeaders.set(
    'Content-Security-Policy',
    contentSecurityPolicy(nonce, { development: !isProduction, formOrigins: FORM_ORIGINS }),
  );
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // The app streams no deferred data, so every page waits for all of it: one complete document
    // with the right status, for browsers and crawlers alike.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <InlineStylesheetProvider value={stylesheetText}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </InlineStylesheetProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough();
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000).unref();
  });
}
