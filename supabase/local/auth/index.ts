import type { ServiceContext, ServiceHandler } from '../context';
import { jsonResponse } from '../context';

export function createAuthService(_context: ServiceContext): ServiceHandler {
  return async () => jsonResponse({ message: 'Not implemented' }, 404);
}
