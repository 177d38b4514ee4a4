/**
 * The one refund action of /dashboard/earnings (sellers, their own sales) and
 * /dashboard/disputes (admins): re-checks the section's permission, validates the form, refunds
 * through the payment provider (`refundPurchase`, which checks that the viewer is the agent's
 * seller or an admin) and answers on the page: a refusal or a failed call is a message above the
 * form, never an error screen; success redirects to the list with 'Purchase refunded.'.
 */
import { connectionContext, supabaseContext } from '~/context';
import { LICENSE_MESSAGES } from '~/lib/licenses';
import { LICENSE_INTENTS, LicenseSwitchSchema, parseLicenseParam } from '~/schemas/license';
import { setLicenseDisabled } from '~/server/licenses.server';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { parseRefundParam, REFUND_MESSAGES, RefundSchema } from '~/schemas/refund';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection, type GuardArgs } from '~/server/guards.server';
import { unavailableMessage } from '~/server/http-errors.server';
import { paymentProvider } from '~/server/payments/index.server';
import { REFUND_REFUSALS, refundPurchase } from '~/server/purchases.server';
import { createServiceSupabase } from '~/server/supabase.server';
import { hrefWith } from '~/lib/href-with';
import { hasPermission } from '~/lib/permissions';

/** What both refund pages read besides their list: the open form (`?refund=`), test mode, the time zone. */
export function refundPageState({ url, request }: { url: URL; request: Request }) {
  return {
    openRefund: parseRefundParam(url.searchParams.get('refund')),
    openLicense: parseLicenseParam(url.searchParams.get('license')),
    testMode: paymentProvider().testMode,
    timeZone: timeZoneFromCookieHeader(request.headers.get('cookie')),
  };
}

/**
 * The sales lists' action: a licence's switch (`intent` disable-license / enable-license, ADR 073)
 * or, without an intent, a refund.
 */
export async function salesListAction(args: GuardArgs & { request: Request; pattern: string }) {
  const form = await args.request.formData();
  const intent = form.get('intent');
  if (typeof intent === 'string' && (LICENSE_INTENTS as readonly string[]).includes(intent)) {
    return licenseSwitchAction(args, form);
  }
  return refundAction(args, form);
}

async function licenseSwitchAction(args: GuardArgs & { request: Request; pattern: string }, form: FormData) {
  requireSection(args);
  const submission = parseForm(form, LicenseSwitchSchema);
  if (submission.status !== 'success') return formError(submission);
  const { value } = submission;
  const reason = value.intent === 'disable-license' ? value.reason : null;
  let outcome;
  try {
    outcome = await setLicenseDisabled(args.context.get(supabaseContext), value.licenseId, reason);
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (!message) throw thrown;
    return formError(submission, { message, status: 503 });
  }
  if (outcome === 'not-found') return formError(submission, { message: LICENSE_MESSAGES.notFound, status: 404 });
  const listUrl = hrefWith(args.url.pathname, args.url.search, { license: null });
  const message = reason ? LICENSE_MESSAGES.disabled : LICENSE_MESSAGES.enabled;
  return redirectWithFlash(args.request, listUrl, { kind: 'success', message });
}

async function refundAction(args: GuardArgs & { request: Request; pattern: string }, form: FormData) {
  const { viewer } = requireSection(args);
  const submission = parseForm(form, RefundSchema);
  if (submission.status !== 'success') return formError(submission);
  const { purchaseId, reason } = submission.value;
  let outcome;
  try {
    outcome = await refundPurchase(createServiceSupabase(args.context.get(connectionContext)), paymentProvider(), {
      actor: { id: viewer.id, isAdmin: hasPermission(viewer.role, 'handle_disputes') },
      purchaseId,
      reason,
    });
  } catch (thrown) {
    const message = unavailableMessage(thrown);
    if (!message) throw thrown;
    return formError(submission, { message, status: 503 });
  }
  if (!outcome.ok) {
    return formError(submission, REFUND_REFUSALS[outcome.refusal]);
  }
  // The page's own URL without `?refund=`: where the list shows the result.
  const listUrl = hrefWith(args.url.pathname, args.url.search, { refund: null });
  return redirectWithFlash(args.request, listUrl, { kind: 'success', message: REFUND_MESSAGES.done });
}
