/**
 * Server guards for loaders AND actions. Anonymous visitors are sent to sign in and brought
 * back; signed-in users without the right get 403 and the Access Denied screen.
 */
import { redirect, type MiddlewareFunction, type RouterContextProvider } from 'react-router';
import { pendingSecondFactorContext, viewerContext } from '~/context';
import { signInHref } from '~/lib/auth-modal';
import { findSection, type DashboardSection } from '~/lib/dashboard-nav';
import { meetsRequirement, type Permission, type Requirement } from '~/lib/permissions';
import { twoFactorHref } from '~/lib/two-factor';
import type { Viewer } from '~/lib/viewer';
import { accessDenied, notFound } from '~/server/http-errors.server';

export interface GuardArgs {
  /** The page's URL (React Router's normalized one: no `.data` suffix on client navigations). */
  url: URL;
  context: Readonly<RouterContextProvider>;
}

export function requireUser({ url, context }: GuardArgs): Viewer {
  const viewer = context.get(viewerContext);
  if (viewer) return viewer;
  // Signed in but the two-factor code is still owed: the code page, then back here.
  const returnTo = `${url.pathname}${url.search}`;
  throw redirect(context.get(pendingSecondFactorContext) ? twoFactorHref(returnTo) : signInHref({ returnTo }));
}

function requireRequirement(args: GuardArgs, requirement: Requirement): Viewer {
  const viewer = requireUser(args);
  if (!meetsRequirement(viewer.role, requirement)) accessDenied(viewer.role, requirement);
  return viewer;
}

export const requirePermission = (args: GuardArgs, permission: Permission) => requireRequirement(args, { permission });

interface SectionGuardArgs extends GuardArgs {
  /** The matched route's pattern, e.g. `dashboard/billing` (React Router's, never the raw URL). */
  pattern: string;
}

/**
 * The dashboard's one guard: finds the section of the matched route in the declaration
 * (app/lib/dashboard-nav.ts, which the route list is derived from too) and requires its
 * permission. So a dashboard page cannot be reachable with another permission than its
 * navigation entry. Every dashboard page's loader calls it first; actions are guarded by
 * `dashboardMiddleware`. A route under the layout that is not declared is a 404 (fail closed).
 */
export function requireSection(args: SectionGuardArgs): { viewer: Viewer; section: DashboardSection } {
  const section = findSection(`/${args.pattern.replace(/^\/+/, '')}`);
  const viewer = section?.permission ? requirePermission(args, section.permission) : requireUser(args);
  if (!section) notFound();
  return { viewer, section };
}

const READS = new Set(['GET', 'HEAD']);

/**
 * The dashboard layout's middleware: runs before the action of every dashboard route, so a
 * submission (POST, PUT, PATCH, DELETE) to a section the viewer may not use is refused (403, or
 * the sign-in redirect) before any action runs, even on pages without an action (which would
 * otherwise answer 405). Reads are left to the page loaders: a middleware that throws runs no
 * loader at all, so the Access Denied page would lose the header and the dashboard navigation.
 */
export const dashboardMiddleware: MiddlewareFunction<Response> = (args) => {
  if (!READS.has(args.request.method)) requireSection(args);
};
