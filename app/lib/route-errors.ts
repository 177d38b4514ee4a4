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

/** Maintenance mode (a platform setting): a change refused while it is on. */
export interface MaintenanceError {
  type: 'maintenance';
  message: string;
}

export type RouteErrorPayload = NotFoundError | AccessDeniedError | BackendUnavailableError | MaintenanceError;

function hasType(value: unknown, type: RouteErrorPayload['type']): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === type;
}

export const isNotFound = (value: unknown): value is NotFoundError => hasType(value, 'not-found');
export const isAccessDenied = (value: unknown): value is AccessDeniedError => hasType(value, 'access-denied');
export const isBackendUnavailable = (value: unknown): value is BackendUnavailableError =>
  hasType(value, 'backend-unavailable');
export const isMaintenance = (value: unknown): value is MaintenanceError => hasType(value, 'maintenance');
