/**
 * Access to the dashboard, derived from one declaration (app/lib/dashboard-nav.ts): every
 * declared section, as each demo account, answers 200 or 403 exactly as the permission table
 * (app/lib/permissions.ts) says, for the page, for its client-side data request and for a
 * submission. Signed out, every section sends to sign-in and back. HTTP-level, so it runs once, in
 * the no-JavaScript project.
 */
import type { APIResponse } from '@playwright/test';
import { DASHBOARD_SECTIONS } from '../../app/lib/dashboard-nav';
import { hasPermission } from '../../app/lib/permissions';
import { expect, SERVER_RENDERED, test } from './fixtures';
import { signIn, type DemoRole } from './support/accounts';

const ROLES: DemoRole[] = ['buyer', 'seller', 'admin'];
/**
 * Sections whose page has forms, and how their action refuses a probe submission: 400 for an
 * unknown intent or invalid fields, 409 for the upload form without its draft id (an expired form).
 */
const PROBE_ANSWER = new Map<string, number>([
  ['/dashboard/earnings', 400],
  ['/dashboard/billing', 400],
  ['/dashboard/reviews', 400],
  ['/dashboard/disputes', 400],
  ['/dashboard/agents', 400],
  ['/dashboard/upload', 400], // no draft key: not a form this page served
  ['/dashboard/users', 400],
  ['/dashboard/moderation', 400],
  ['/dashboard/system', 400], // the platform settings' form: no fee
  ['/dashboard/collection', 400], // Reset activations: no licence
  ['/dashboard/developers', 400], // a token or an endpoint: no name, no URL
]);

const denial = (permission: string) => `You don't have the required permission: ${permission}`;

/** Status and body of an answer, so a failure names the section and what came back. */
async function outcome(response: APIResponse) {
  return { status: response.status(), body: await response.text() };
}

for (const role of ROLES) {
  test(
    `${role}: every declared section answers as the permission table says`,
    SERVER_RENDERED,
    async ({ page, baseURL }) => {
      await signIn(page, role);
      for (const section of DASHBOARD_SECTIONS) {
        const allowed = section.permission === null || hasPermission(role, section.permission);
        const expected = allowed ? 200 : 403;

        // The page, as the browser loads it.
        const document = await outcome(await page.request.get(section.path, { maxRedirects: 0 }));
        expect(`${section.path} ${document.status}`).toBe(`${section.path} ${expected}`);
        if (section.permission && !allowed) {
          expect(document.body).toContain(denial(section.permission).replace("'", '&#x27;'));
          expect(document.body).toContain(`Account menu for demo_${role}`); // still inside the layout
        }

        // The same page's data, as a client-side navigation fetches it.
        const navigation = await outcome(await page.request.get(`${section.path}.data`, { maxRedirects: 0 }));
        expect(`${section.path}.data ${navigation.status}`).toBe(`${section.path}.data ${expected}`);
        if (section.permission && !allowed) expect(navigation.body).toContain(denial(section.permission));

        // A submission, same-origin like a form on the page: refused before any action runs.
        const submission = await outcome(
          await page.request.post(section.path, {
            form: { intent: 'probe' },
            headers: { Origin: baseURL ?? '' },
            maxRedirects: 0,
          }),
        );
        if (section.permission && !allowed) {
          expect(`POST ${section.path} ${submission.status}`).toBe(`POST ${section.path} 403`);
          expect(submission.body).toContain(denial(section.permission).replace("'", '&#x27;'));
        } else {
          // The permitted submission reaches the route, not the guard: a page's form refuses the
          // probe, a section without an action answers 405.
          const expected = PROBE_ANSWER.get(section.path) ?? 405;
          expect(`POST ${section.path} ${submission.status}`).toBe(`POST ${section.path} ${expected}`);
        }
      }
    },
  );
}

test(
  'signed out: every declared section sends to sign-in and back, for reads and submissions',
  SERVER_RENDERED,
  async ({ request, baseURL }) => {
    for (const section of DASHBOARD_SECTIONS) {
      const signInUrl = `/?auth=sign-in&redirectTo=${encodeURIComponent(section.path)}`;
      const read = await request.get(section.path, { maxRedirects: 0 });
      expect(`${section.path} ${read.status()} ${read.headers().location}`).toBe(`${section.path} 302 ${signInUrl}`);
      const submission = await request.post(section.path, {
        form: { intent: 'probe' },
        headers: { Origin: baseURL ?? '' },
        maxRedirects: 0,
      });
      expect(`POST ${section.path} ${submission.status()} ${submission.headers().location}`).toBe(
        `POST ${section.path} 302 ${signInUrl}`,
      );
    }
  },
);
