/**
 * Zod 4 compiles object parsers with `new Function` when it may: on first use it probes with
 * `new Function('')` inside a try/catch. Under the pages' Content-Security-Policy (no
 * 'unsafe-eval') the probe is refused, and Chromium reports every refusal as a CSP violation
 * (a `securitypolicyviolation` event, and a report once a report endpoint exists) on each page
 * whose route module builds a schema. `jitless` skips the probe and the compiler. It has to be
 * set before the first schema is built, i.e. before any module runs: this classic inline script
 * in <head> runs before React Router's module scripts, and zod reads its configuration from
 * `globalThis.__zod_globalConfig` (zod/v4/core/core.js creates it only when absent). The server
 * keeps the compiled parsers (no CSP applies there).
 */
export const ZOD_JITLESS_SCRIPT =
  'globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});';
