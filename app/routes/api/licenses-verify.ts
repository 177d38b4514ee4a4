import { clientAddressContext, connectionContext } from '~/context';
import { LicenseVerifyRequest } from '~/schemas/api';
import { apiError, apiJson, invalidRequest, methodNotAllowed, readApiBody } from '~/server/api/responses.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { verifyLicense } from '~/server/licenses.server';
import { formWindows, licenseVerifyByAddress, licenseVerifyByKey } from '~/server/rate-limit.server';
import type { Route } from './+types/licenses-verify';

const NOT_FOUND = 'No licence with this key exists for this agent.';

/**
 * `POST /api/v1/licenses/verify` (ADR 073), public: is this key a licence of this agent, and may
 * it be used? JSON or a form: `agent_id`, `license_key`, `increment_uses`. A wrong key and an
 * unknown agent answer alike (404); a refunded or disabled licence is `valid: false`; past the
 * agent's activation limit an activation is refused with 409. Rate limited per address and per key.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  const body = await readApiBody(request);
  if (!body) return apiError(400, 'invalid_request', 'Send a JSON object or a form, without null characters.');
  const parsed = LicenseVerifyRequest.safeParse(body);
  if (!parsed.success) return invalidRequest(parsed.error);
  const { agent_id: agentId, license_key: key, increment_uses: incrementUses } = parsed.data;

  const windows = formWindows(context);
  const [byAddress, byKey] = await Promise.all([
    licenseVerifyByAddress.consume(windows, [context.get(clientAddressContext)]),
    licenseVerifyByKey.consume(windows, [key.replace(/[\s-]/g, '').toUpperCase()]),
  ]);
  if (!byAddress.allowed || !byKey.allowed) {
    const retryAfter = String(Math.max(byAddress.retryAfterSeconds, byKey.retryAfterSeconds));
    return apiError(429, 'rate_limited', 'Too many licence checks. Please wait a minute and try again.', {
      headers: { 'Retry-After': retryAfter },
    });
  }

  try {
    const outcome = await verifyLicense(context.get(connectionContext), { agentId, key, incrementUses });
    if (outcome.kind === 'not-found') return apiError(404, 'license_not_found', NOT_FOUND);
    if (outcome.kind === 'limit-reached') {
      return apiJson(
        {
          valid: false,
          license: outcome.license,
          error: { code: 'activation_limit_reached', message: 'This licence has reached its activation limit.' },
        },
        409,
      );
    }
    return apiJson({ valid: outcome.valid, license: outcome.license });
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (message === null) throw thrown;
    return apiError(503, 'unavailable', message);
  }
}

export function loader() {
  return methodNotAllowed('POST');
}
