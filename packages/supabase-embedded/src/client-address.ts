/**
 * Who is asking: the client address the embedded backend rate-limits by.
 *
 * GoTrue reads it from the `X-Forwarded-For` its own proxy sets. Here the address arrives out of
 * band: the HTTP layer passes `req.ip` (which honours TRUST_PROXY) to `backend.handle`, and the
 * app's server-side Supabase client passes its visitor's address to `backend.fetchFrom`. The
 * gateway then writes it into {@link CLIENT_ADDRESS_HEADER}, overwriting whatever a caller sent,
 * so no request from outside can choose the address it is counted under.
 */
export const CLIENT_ADDRESS_HEADER = 'x-embedded-client-address';

/** Requests made in process without an address (service work, tests) share one bucket. */
export const UNKNOWN_CLIENT_ADDRESS = 'unknown';

/** Sets the trusted address on the headers of a request the gateway forwards to a service. */
export function stampClientAddress(headers: Headers, address: string | undefined): void {
  headers.set(CLIENT_ADDRESS_HEADER, address || UNKNOWN_CLIENT_ADDRESS);
}

/** The address the gateway stamped on a request (services only see forwarded requests). */
export function clientAddressOf(request: Request): string {
  return request.headers.get(CLIENT_ADDRESS_HEADER) || UNKNOWN_CLIENT_ADDRESS;
}
