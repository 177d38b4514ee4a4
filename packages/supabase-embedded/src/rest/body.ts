/**
 * Reads a request body without trusting `Content-Length`: past `maxBytes` the rest is read and
 * discarded (nothing more is kept), then `BodyTooLargeError` is thrown. The reader is never
 * cancelled mid-stream: a body stream fed by a Node request (node-fetch-server's
 * `createRequest`) keeps enqueueing the chunks still in flight, and an enqueue after a cancel
 * throws `ERR_INVALID_STATE` outside any handler, killing the process. In the app server the
 * HTTP layer (server/body-limit.ts) already refuses such bodies before they get here.
 */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Payload too large (limit ${limit} bytes)`);
  }
}

export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) chunks.length = 0;
    else chunks.push(value);
  }
  if (total > maxBytes) throw new BodyTooLargeError(maxBytes);
  const result = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    result.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return result;
}
