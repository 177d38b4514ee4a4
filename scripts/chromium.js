/**
 * The Chromium the end-to-end tests drive: `CHROMIUM_PATH`, else Debian's old headless shell
 * (`apt-get install chromium-headless-shell`, what Playwright itself runs headless), else Debian's
 * full `chromium`; undefined means Playwright's own browser. The headless shell does the same
 * rendering without the full browser's processes: the suites used 40 % less CPU with it
 * (docs/decisions/024-browser-quality.md).
 */
import { existsSync } from 'node:fs';

const candidates = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
];

/** @returns {string | undefined} */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH ?? candidates.find((path) => existsSync(path));
}
