/**
 * `npm install` prints no warning the README does not explain. npm lists every dependency whose
 * install script package.json's `allowScripts` does not name ("install scripts not yet covered"),
 * so each package of the lock file with an install script is named there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('npm install', () => {
  it('names every dependency with an install script in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const approved = Object.keys(manifest.allowScripts ?? {}).map((name) => name.replace(/(.)@.*$/, '$1'));
    expect(withScripts.filter((name) => !approved.includes(name))).toEqual([]);
  });
});
