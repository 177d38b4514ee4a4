/**
 * Server guards for loaders AND actions. Anonymous visitors are sent to sign in and brought
 * back; signed-in users without the right get 403 and the Access Denied screen.
 */
import { redirect, type RouterContextProvider } from 'react-router';
import { viewerContext } from '~/context';
import { meetsRequirement, type Permission, type Requirement, type Role } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { accessDenied } from '~/server/http-errors.server';

interface GuardArgs {
  /** The page's URL (React Router's normalized one: no `.data` suffix on client navigations). */
  url: URL;
  context: Readonly<RouterContextProvider>;
}

/** The sign-in URL that returns to the page at `url` afterwards. */
export function signInRedirectUrl(url: URL): string {
  const returnTo = `${url.pathname}${url.search}`;
  return `/?${new URLSearchParams({ auth: 'sign-in', redirectTo: returnTo })}`;
}

export function requireUser({ url, context }: GuardArgs): Viewer {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect(signInRedirectUrl(url));
  return viewer;
}

export function requireRequirement(args: GuardArgs, requirement: Requirement): Viewer {
  const viewer = requireUser(args);
  if (!meetsRequirement(viewer.role, requirement)) accessDenied(viewer.role, requirement);
  return viewer;
}

export const requireRole = (args: GuardArgs, role: Role) => requireRequirement(args, { role });
export const requirePermission = (args: GuardArgs, permission: Permission) => requireRequirement(args, { permission });
export const requireAllPermissions = (args: GuardArgs, allOf: readonly Permission[]) =>
  requireRequirement(args, { allOf });
export const requireAnyPermission = (args: GuardArgs, anyOf: readonly Permission[]) =>
  requireRequirement(args, { anyOf });
