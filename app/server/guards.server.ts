/**
 * Server guards for loaders AND actions. Anonymous visitors are sent to sign in and brought
 * back; signed-in users without the right get 403 and the Access Denied screen.
 */
import { data, redirect, type RouterContextProvider } from 'react-router';
import { viewerContext } from '~/context';
import { signInHref } from '~/lib/auth-modal';
import { deniedMessage, meetsRequirement, type Permission, type Requirement, type Role } from '~/lib/permissions';
import type { AccessDeniedError } from '~/lib/route-errors';
import type { Viewer } from '~/lib/viewer';

interface GuardArgs {
  /** The page's URL (React Router's normalized one: no `.data` suffix on client navigations). */
  url: URL;
  context: Readonly<RouterContextProvider>;
}

export function requireUser({ url, context }: GuardArgs): Viewer {
  const viewer = context.get(viewerContext);
  if (!viewer) throw redirect(signInHref({ returnTo: `${url.pathname}${url.search}` }));
  return viewer;
}

function requireRequirement(args: GuardArgs, requirement: Requirement): Viewer {
  const viewer = requireUser(args);
  if (!meetsRequirement(viewer.role, requirement)) throw accessDenied(viewer.role, requirement);
  return viewer;
}

export const requirePermission = (args: GuardArgs, permission: Permission) => requireRequirement(args, { permission });

function accessDenied(role: Role, requirement: Requirement) {
  const payload: AccessDeniedError = {
    type: 'access-denied',
    role,
    requirement,
    message: deniedMessage(role, requirement),
  };
  return data(payload, { status: 403 });
}
