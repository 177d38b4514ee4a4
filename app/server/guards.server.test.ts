/**
 * The dashboard guard on a real router context: the permission comes from the section the
 * matched route's pattern belongs to, never from the page.
 */
import { isRouteErrorResponse, RouterContextProvider, type UNSAFE_DataWithResponseInit } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pendingSecondFactorContext, viewerContext } from '~/context';
import { DASHBOARD_SECTIONS } from '~/lib/dashboard-nav';
import { hasPermission, permissionsOf, ROLES, type Role } from '~/lib/permissions';
import { dashboardMiddleware, requireSection } from './guards.server';

function args(role: Role | null, pattern: string, method = 'GET') {
  const context = new RouterContextProvider();
  if (role) {
    context.set(viewerContext, {
      id: '00000000-0000-4000-8000-000000000001',
      email: `${role}@demo.test`,
      username: `demo_${role}`,
      avatarUrl: null,
      role,
      permissions: [...permissionsOf(role)],
      createdAt: '2024-01-01T00:00:00Z',
    });
  }
  const url = new URL(`http://app.test/${pattern}?tab=1`);
  return { url, pattern, context, request: new Request(url, { method }), params: {} };
}

/** What the guard threw: a status (403, 404, a redirect's 302) and, for a redirect, where to. */
function thrown(run: () => unknown): { status: number; location?: string | null } | 'passed' {
  try {
    run();
    return 'passed';
  } catch (error) {
    if (error instanceof Response) return { status: error.status, location: error.headers.get('Location') };
    const init = (error as UNSAFE_DataWithResponseInit<unknown>).init;
    if (init?.status) return { status: init.status };
    if (isRouteErrorResponse(error)) return { status: error.status };
    throw error;
  }
}

const patternOf = (path: string) => path.slice(1); // React Router's patterns have no leading slash

describe('requireSection', () => {
  for (const role of ROLES) {
    it(`lets ${role} into exactly the sections whose permission it holds`, () => {
      for (const section of DASHBOARD_SECTIONS) {
        const allowed = section.permission === null || hasPermission(role, section.permission);
        const result = thrown(() => requireSection(args(role, patternOf(section.path))));
        expect([section.path, result]).toEqual([section.path, allowed ? 'passed' : { status: 403 }]);
      }
    });
  }

  it('returns the viewer and the section', () => {
    const { viewer, section } = requireSection(args('buyer', 'dashboard/billing'));
    expect(viewer.role).toBe('buyer');
    expect(section.label).toBe('Billing');
  });

  it('sends a signed-out visitor to sign in and back, from every section', () => {
    for (const section of DASHBOARD_SECTIONS) {
      expect(thrown(() => requireSection(args(null, patternOf(section.path))))).toEqual({
        status: 302,
        location: `/?auth=sign-in&redirectTo=${encodeURIComponent(`${section.path}?tab=1`)}`,
      });
    }
  });

  it('sends a user who still owes the two-factor code to the code page and back, not to sign in (ADR 016)', () => {
    const pending = args(null, 'dashboard/billing');
    pending.context.set(pendingSecondFactorContext, { id: '00000000-0000-4000-8000-000000000002', email: 'a@b.c' });
    expect(thrown(() => requireSection(pending))).toEqual({
      status: 302,
      location: `/auth/two-factor?redirectTo=${encodeURIComponent('/dashboard/billing?tab=1')}`,
    });
  });

  it('takes a deeper route under a section with that section`s permission', () => {
    expect(thrown(() => requireSection(args('seller', 'dashboard/users/:userId')))).toEqual({ status: 403 });
    expect(thrown(() => requireSection(args('admin', 'dashboard/users/:userId')))).toBe('passed');
  });

  it('refuses a dashboard route that is not declared (404), after sign-in', () => {
    expect(thrown(() => requireSection(args('admin', 'dashboard/undeclared')))).toEqual({ status: 404 });
    expect(thrown(() => requireSection(args(null, 'dashboard/undeclared')))).toMatchObject({ status: 302 });
  });
});

describe('dashboardMiddleware', () => {
  const run = (role: Role | null, pattern: string, method: string) =>
    thrown(() => dashboardMiddleware(args(role, pattern, method), () => Promise.resolve(new Response())));

  it('refuses every submission to a section the viewer may not use', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(run('buyer', 'dashboard/system', method)).toEqual({ status: 403 });
      expect(run('seller', 'dashboard/users', method)).toEqual({ status: 403 });
      expect(run(null, 'dashboard/billing', method)).toMatchObject({ status: 302 });
      expect(run('admin', 'dashboard/system', method)).toBe('passed');
      expect(run('buyer', 'dashboard/billing', method)).toBe('passed');
    }
  });

  it('leaves reads to the page loaders (so the Access Denied page keeps the layout)', () => {
    expect(run('buyer', 'dashboard/system', 'GET')).toBe('passed');
    expect(run('buyer', 'dashboard/system', 'HEAD')).toBe('passed');
  });
});
