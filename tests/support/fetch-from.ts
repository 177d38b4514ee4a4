/**
 * A `fetch` whose connections leave from a given local address (127.0.0.2, 127.0.0.3, … are all
 * this machine's loopback on Linux), so a test can be several clients at once without trusting
 * any forwarding header. Node's own fetch cannot pick its source address without undici's Agent.
 * Redirects are not followed: tests read the 3xx itself.
 */
import { request as httpRequest } from 'node:http';

export function fetchFrom(localAddress: string): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers = Object.fromEntries(request.headers);
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpRequest(request.url, { method: request.method, headers, localAddress }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            for (const item of [value ?? []].flat()) responseHeaders.append(name, item);
          }
          const status = incoming.statusCode ?? 500;
          const empty = status === 204 || status === 304 || request.method === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: responseHeaders }));
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }) as typeof fetch;
}
