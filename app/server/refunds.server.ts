/**
 * The one refund action of /dashboard/earnings (sellers, their own sales) and
 * /dashboard/disputes (admins): re-checks the section's permission, validates the form, refunds
 * through the payment provider (`refundPurchase`, which checks that the viewer is the agent's
 * seller or an admin) and answers on the page: a refusal or a failed call is a message above the
 * form, never an error screen; success redirects to the list with 'Purchase refunded.'.
 */
import { connectionContext } from '~/context';
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
    testMode: paymentProvider().testMode,
    timeZone: timeZoneFromCookieHeader(request.headers.get('cookie')),
  };
}

export async function refundAction(args: GuardArgs & { request: Request; pattern: string }) {
  const { viewer } = requireSection(args);
  const submission = parseForm(await args.request.formData(), RefundSchema);
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
