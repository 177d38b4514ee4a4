import { chromium } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
const base = 'http://127.0.0.1:3999';
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const pub = ['/', '/marketplace', '/categories', '/pricing', '/help', '/docs', '/privacy', '/terms', '/become-seller', '/auth/sign-in', '/?auth=sign-in', '/?auth=sign-up', '/auth/forgot-password', '/sellers/demo_seller', '/nope'];
const roles = {
  buyer: ['/dashboard', '/dashboard/collection', '/dashboard/purchases', '/dashboard/membership', '/dashboard/billing', '/profile', '/profile?tab=security', '/profile?tab=privacy', '/profile?tab=notifications', '/profile?tab=data', '/dashboard/membership/confirm?tier=premium'],
  seller: ['/dashboard', '/dashboard/agents', '/dashboard/upload', '/dashboard/analytics', '/dashboard/earnings', '/dashboard/reviews', '/dashboard/messages'],
  admin: ['/dashboard', '/dashboard/users', '/dashboard/moderation', '/dashboard/system', '/dashboard/platform-analytics', '/dashboard/disputes', '/dashboard/reports'],
};
const found = new Map();
async function sweep(ctxOpts, who, paths) {
  for (const js of [true, false]) {
    const c = await b.newContext({ ...ctxOpts, javaScriptEnabled: js });
    const p = await c.newPage();
    if (who) {
      const r = await p.request.post(base + '/auth/sign-in', { form: { email: `${who}@demo.test`, password: 'demo-password', redirectTo: '/' }, maxRedirects: 0 });
      if (r.status() !== 302) console.log('signin', who, r.status());
    }
    for (const path of paths) {
      try {
      await p.goto(base + path);
      if (path.includes('agent/')) {}
      for (const scheme of ['light', 'dark']) {
        await p.emulateMedia({ colorScheme: scheme });
        const res = await new AxeBuilder({ page: p }).withTags(TAGS).analyze();
        for (const v of res.violations) {
          const key = `${v.id} (${v.impact})`;
          const nodes = v.nodes.slice(0, 2).map((n) => n.target.join(' ')).join(' | ');
          const e = found.get(key) ?? new Set();
          e.add(`${who ?? 'anon'} ${js ? 'js' : 'nojs'} ${scheme} ${path}: ${nodes}`);
          found.set(key, e);
        }
      }
      } catch (error) { console.log('ERR', who, js, path, String(error).slice(0, 200)); }
    }
    await c.close();
  }
}
// an agent page
const c0 = await b.newContext(); const p0 = await c0.newPage(); await p0.goto(base + '/marketplace');
const agent = await p0.locator('a[href^="/agent/"]').first().getAttribute('href'); await c0.close();
await sweep({ viewport: { width: 1366, height: 900 } }, null, [...pub, agent]);
for (const [who, paths] of Object.entries(roles)) await sweep({ viewport: { width: 1366, height: 900 } }, who, paths);
for (const [k, v] of found) { console.log('\n==', k, v.size); for (const l of [...v].slice(0, 6)) console.log('  ', l); }
await b.close();
