/**
 * Typed payloads of expected errors, thrown as `data(payload, { status })` by loaders and
 * actions and rendered by the error boundaries.
 */
import type { Requirement, Role } from '~/lib/permissions';

export interface NotFoundError {
  type: 'not-found';
  title?: string;
  message?: string;
}

export interface AccessDeniedError {
  type: 'access-denied';
  role: Role;
  requirement: Requirement;
  message: string;
}

export interface BackendUnavailableError {
  type: 'backend-unavailable';
  message: string;
}

export type RouteErrorPayload = NotFoundError | AccessDeniedError | BackendUnavailableError;

function hasType(value: unknown, type: RouteErrorPayload['type']): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type;
}

export const isNotFound = (value: unknown): value is NotFoundError => hasType(value, 'not-found');
export const isAccessDenied = (value: unknown): value is AccessDeniedError => hasType(value, 'access-denied');
export const isBackendUnavailable = (value: unknown): value is BackendUnavailableError =>
  hasType(value, 'backend-unavailable');
