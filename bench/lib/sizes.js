/**
 * What a page costs to download: the JavaScript its HTML loads (`<script src>`, `<link
 * rel="modulepreload">` and the static imports of inline module scripts), each fetched and
 * gzipped at level 9, summed; and the page's own HTML gzipped.
 */
import { gzipSync } from 'node:zlib';

const gzipSize = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;

export function scriptUrls(html) {
  const urls = new Set();
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = /\bsrc="([^"]+)"/i.exec(tag);
    if (src) urls.add(src[1]);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    if (!/\brel="modulepreload"/i.test(tag)) continue;
    const href = /\bhref="([^"]+)"/i.exec(tag);
    if (href) urls.add(href[1]);
  }
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/gi)) {
    for (const [, url] of body.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?["']([^"']+\.js)["']/g)) urls.add(url);
  }
  return [...urls].map((url) => url.replaceAll('&amp;', '&'));
}

export async function pageSizes(origin, path, headers = {}) {
  const response = await fetch(origin + path, { headers });
  const html = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
  const scripts = [];
  for (const url of scriptUrls(html)) {
    const asset = await fetch(new URL(url, origin));
    if (!asset.ok) throw new Error(`GET ${url}: ${asset.status}`);
    const text = await asset.text();
    scripts.push({ url, raw: Buffer.byteLength(text), gzip: gzipSize(text) });
  }
  return {
    path,
    htmlRaw: Buffer.byteLength(html),
    htmlGzip: gzipSize(html),
    jsRaw: scripts.reduce((sum, script) => sum + script.raw, 0),
    jsGzip: scripts.reduce((sum, script) => sum + script.gzip, 0),
    scripts,
    cards: (html.match(/<article\b/g) ?? []).length,
  };
}
