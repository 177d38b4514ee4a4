/**
 * zod, as every schema of app/schemas imports it. In the browser its `jitless` mode is on before
 * any schema is made: otherwise zod probes `new Function('')` when it builds an object schema, which
 * the Content-Security-Policy (no 'unsafe-eval') refuses: a CSP violation on every page with a
 * form, reported by the browser (Lighthouse's "Issues" audit) though zod falls back. The server
 * keeps zod's faster compiled parsers.
 */
import { z } from 'zod';

if (typeof document !== 'undefined') z.config({ jitless: true });

export { z };
