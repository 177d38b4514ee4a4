/**
 * What the app's own source says about its URL surface, read from app/ (never a hand list): the
 * query parameter names it reads. The security suite aims its hostile values at them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The query parameter names the app reads, from its source. */
export function parameterNames(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles('app')) {
    for (const match of readFileSync(file, 'utf8').matchAll(
      /\.(?:get|getAll|has|set|delete)\(\s*['"]([a-zA-Z_][a-zA-Z_-]*)['"]/g,
    )) {
      names.add(match[1]!);
    }
  }
  for (const header of ['cookie', 'location', 'Location', 'content-type', 'authorization']) names.delete(header);
  return [...names].sort();
}

/** The .ts and .tsx files under `dir`, tests left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
