/**
 * The one request-body mechanism of the HTTP layer (docs/security/body-limits.md), in front of
 * BOTH the embedded backend and the React Router handler:
 *
 * - a declared `Content-Length` over the route family's limit is a 413, nothing of it kept;
 * - any other body (chunked or undeclared) is counted as it streams into a buffer; past the
 *   limit nothing more is kept and the answer is 413;
 * - a body that has not fully arrived within the timeout (a slow-loris upload) is a 408;
 * - a complete body is handed on as the bytes of a web `Request` built here.
 *
 * Why buffer instead of passing a counted stream on: the handlers downstream never see a stream
 * tied to the socket, so no web `ReadableStream` can be written into after its reader went away
 * (the `ERR_INVALID_STATE: Controller is already closed` crash of node-fetch-server's
 * `createRequest`, whose `data` listener keeps enqueueing after a cancel). The limits are small
 * (forms 1 MiB, the two listing forms 25 MiB, backend 10 MiB) and every consumer buffered the whole body anyway (`formData()`,
 * `readBodyBytes`), so the memory profile is unchanged.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { isBackendPath, MAX_BODY_BYTES } from '@agentmarket/supabase-embedded';

/** App routes only take form posts: larger bodies are refused. */
export const MAX_FORM_BYTES = 1024 * 1024;
/**
 * `/auth/v1`, `/rest/v1`, `/storage/v1` (storage uploads included): the embedded backend's own
 * cap (10 MiB), which it also enforces when the app calls it in process.
 */
export const MAX_BACKEND_BYTES = MAX_BODY_BYTES;

/**
 * The two listing forms (`/dashboard/upload`, `/dashboard/agents/:agentId/edit`, and their `.data`
 * requests with JavaScript) and the seller API's version upload (`/api/v1/agents/:id/versions`) carry files: a package (10 MB) and up to seven images (2 MB each). Only
 * they take multipart bodies up to 25 MiB; the actions check each file's size and bytes and answer
 * 400 with a message per field (app/server/listing.server.ts). Every other app route keeps 1 MiB.
 */
export const MAX_UPLOAD_FORM_BYTES = 25 * 1024 * 1024;
const UPLOAD_FORM_PATH =
  /^(\/dashboard\/(upload|agents\/[0-9A-Za-z-]{1,64}\/edit)(\.data)?|\/api\/v1\/agents\/[0-9A-Za-z-]{1,64}\/versions)\/?$/;

/** Methods whose body nobody reads: Node discards it; no Request body is built for them. */
const BODILESS = new Set(['GET', 'HEAD']);

/**
 * The profile page (`/profile`, `/profile.data`) carries the picture (2 MB): up to 4 MiB reaches
 * its action, so a somewhat larger file is answered with a message beside the control; anything
 * beyond is a 413 before it is read whole.
 */
export const MAX_PROFILE_FORM_BYTES = 4 * 1024 * 1024;
const PROFILE_FORM_PATH = /^\/profile(\.data)?\/?$/;

/**
 * The limit of a request's body. The file forms' larger limits are for multipart bodies only (the
 * only kind that carries files): a urlencoded post to them keeps the 1 MiB of any form, so it is
 * never parsed into a 10 MB string.
 */
/**
 * At most this many fields in a form post to the app (as body-parser's `parameterLimit`, PHP's
 * `max_input_vars`; no form of the app has a hundred). Counted on the bytes, before anything
 * parses the form: a 10,000-part multipart body is a 400 at once instead of seconds of parsing.
 */
export const MAX_FORM_FIELDS = 1000;

/** The fields of a form body counted on its bytes, unparsed: urlencoded pairs or multipart parts. */
export function countFormFields(body: Buffer, contentType: string): number {
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    if (body.length === 0) return 0;
    let count = 1;
    for (let at = body.indexOf(0x26); at !== -1; at = body.indexOf(0x26, at + 1)) count++; // '&'
    return count;
  }
  const boundary = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (!boundary) return 0;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  // n delimiters enclose n - 1 parts (the last one closes the body).
  let delimiters = 0;
  for (let at = body.indexOf(delimiter); at !== -1; at = body.indexOf(delimiter, at + delimiter.length)) delimiters++;
  return Math.max(delimiters - 1, 0);
}

export function bodyLimitFor(path: string, contentType = 'multipart/form-data'): number {
  if (isBackendPath(path)) return MAX_BACKEND_BYTES;
  if (!/^multipart\/form-data/i.test(contentType)) return MAX_FORM_BYTES;
  if (PROFILE_FORM_PATH.test(path)) return MAX_PROFILE_FORM_BYTES;
  return UPLOAD_FORM_PATH.test(path) ? MAX_UPLOAD_FORM_BYTES : MAX_FORM_BYTES;
}

const BODY = Symbol('request body');
type WithBody = ExpressRequest & { [BODY]?: Buffer };

/** How long the rest of an oversized body is read and dropped before the 413 is sent anyway. */
const LINGER_MS = 5000;

/**
 * Reads the body of every request that may carry one, within its route family's limit and the
 * time limit, then calls `next()`; `webRequest(req, res, url)` afterwards gives the handlers a
 * `Request` over those bytes.
 *
 * An oversized body is refused with a lingering close, as nginx does it: the rest is read and
 * dropped (never stored, nothing downstream sees it) until it ends, at most LINGER_MS, and only
 * then is the 413 sent. Answering while the client is still sending makes Node close the
 * socket under it, and the client sees a connection reset (EPIPE) instead of the 413.
 */
export function readBodyWithinLimits(options: { timeoutMs: number }) {
  return function readBody(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (BODILESS.has(req.method)) return next();
    const limit = bodyLimitFor(req.path, req.get('content-type') ?? '');
    const declared = req.get('content-length');
    const chunks: Buffer[] = [];
    let received = 0;
    let state: 'reading' | 'discarding' | 'done' = 'reading';

    const deadline = setTimeout(() => {
      if (state !== 'reading') return;
      stop();
      // The body is not coming: the connection is closed once the answer is written.
      refuse(req, res, 408, 'Request body not received in time.', true);
    }, options.timeoutMs);
    deadline.unref();
    let linger: NodeJS.Timeout | undefined;

    function stop() {
      state = 'done';
      clearTimeout(deadline);
      clearTimeout(linger);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', stop);
      req.off('aborted', stop);
    }
    function tooLarge() {
      state = 'discarding';
      chunks.length = 0;
      clearTimeout(deadline);
      linger = setTimeout(() => {
        stop();
        refuse(req, res, 413, tooLargeMessage(limit), true);
      }, LINGER_MS);
      linger.unref();
    }
    function onData(chunk: Buffer) {
      if (state !== 'reading') return; // discarding: dropped
      received += chunk.length;
      if (received > limit) tooLarge();
      else chunks.push(chunk);
    }
    function onEnd() {
      const wasReading = state === 'reading';
      stop();
      if (!wasReading) return refuse(req, res, 413, tooLargeMessage(limit), false);
      const body = Buffer.concat(chunks, received);
      if (!isBackendPath(req.path) && countFormFields(body, req.get('content-type') ?? '') > MAX_FORM_FIELDS) {
        return refuse(req, res, 400, `This form has too many fields (at most ${MAX_FORM_FIELDS}).`, false);
      }
      (req as WithBody)[BODY] = body;
      next();
    }
    req.on('data', onData);
    req.on('end', onEnd);
    // The client went away mid-body: there is no one to answer.
    req.on('error', stop);
    req.on('aborted', stop);
    if (declared !== undefined && Number(declared) > limit) tooLarge();
  };
}

function tooLargeMessage(limit: number) {
  return `Request body too large (limit ${Math.round(limit / 1024 / 1024)} MB).`;
}

function refuse(req: ExpressRequest, res: ExpressResponse, status: 400 | 408 | 413, message: string, close: boolean) {
  if (res.headersSent || res.destroyed) return;
  if (close) res.set('Connection', 'close');
  if (isBackendPath(req.path)) {
    // The gateway's error shape, so Supabase clients report it as they would for hosted Supabase.
    const error = status === 413 ? 'Payload too large' : status === 408 ? 'Request timeout' : 'Bad request';
    res.status(status).json({ statusCode: String(status), error, message });
  } else if (req.path.startsWith('/api/')) {
    // The JSON API's error shape (app/server/api/responses.server.ts).
    const code = status === 413 ? 'payload_too_large' : status === 408 ? 'request_timeout' : 'invalid_request';
    res.status(status).json({ error: { code, message } });
  } else {
    res.status(status).type('text/plain').send(message);
  }
}

/**
 * The web `Request` of an Express request whose body `readBodyWithinLimits` has read. `url` is
 * the absolute URL (the caller decides how the host is derived). Its signal aborts when the
 * response closes before it finished (the client went away).
 */
export function webRequest(req: ExpressRequest, res: ExpressResponse, url: string): Request {
  const controller = new AbortController();
  let finished = false;
  res.once('finish', () => (finished = true));
  res.once('close', () => {
    if (!finished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const body = BODILESS.has(req.method) ? undefined : ((req as WithBody)[BODY] ?? Buffer.alloc(0));
  delete (req as WithBody)[BODY]; // the Request holds its own copy: this one can go now
  return new Request(url, {
    method: req.method,
    headers,
    body: body as Uint8Array<ArrayBuffer> | undefined,
    signal: controller.signal,
  });
}
