/**
 * Database functions that take the viewer's time zone (an IANA name the browser reported): a
 * zone Postgres does not know is an error there (22023), so the call is made again in UTC, the
 * figures then being in UTC rather than missing.
 */
export async function withTimeZoneFallback<R extends { error: { code?: string } | null }>(
  timeZone: string,
  call: (zone: string) => PromiseLike<R>,
): Promise<R> {
  const result = await call(timeZone);
  return result.error?.code === '22023' && timeZone !== 'UTC' ? call('UTC') : result;
}
