/**
 * /dashboard/developers/webhooks/:endpointId (in Developers, `manage_products`; ADR 076): one of
 * the seller's endpoints with its last 50 deliveries, every attempt (status code or error, answer
 * time), and Redeliver. Another seller's endpoint is a 404.
 */
import { Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { FormMessage } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { RedeliverSchema, WEBHOOK_MESSAGES } from '~/schemas/webhooks';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import { readWebhookDeliveries, redeliverWebhook, type DeliveryRow } from '~/server/webhook-endpoints.server';
import { z } from 'zod';
import type { Route } from './+types/webhook-deliveries';

const NOT_FOUND = { title: 'Endpoint not found', message: WEBHOOK_MESSAGES.notFound };

export async function loader(args: Route.LoaderArgs) {
  requireSection(args);
  const id = z.guid().safeParse(args.params.endpointId);
  if (!id.success) notFound(NOT_FOUND);
  const timeZone = timeZoneFromCookieHeader(args.request.headers.get('cookie'));
  const found = await readWebhookDeliveries(args.context.get(supabaseContext), id.data.toLowerCase(), timeZone);
  if (!found) notFound(NOT_FOUND);
  return found;
}

export async function action(args: Route.ActionArgs) {
  requireSection(args);
  const submission = parseForm(await args.request.formData(), RedeliverSchema);
  if (submission.status !== 'success') return formError(submission);
  const outcome = await redeliverWebhook(args.context.get(supabaseContext), submission.value.deliveryId);
  if (outcome === 'not-found')
    return formError(submission, { message: WEBHOOK_MESSAGES.deliveryNotFound, status: 404 });
  if (outcome === 'too-soon') return formError(submission, { message: WEBHOOK_MESSAGES.redeliverTooSoon, status: 429 });
  return redirectWithFlash(args.request, args.url.pathname, { kind: 'success', message: WEBHOOK_MESSAGES.redelivered });
}

export const meta: Route.MetaFunction = ({ error }) =>
  errorMeta(error) ?? pageMeta('Webhook deliveries', 'The deliveries of one of your webhook endpoints.');

const STATUS_LABELS: Record<DeliveryRow['status'], string> = {
  pending: 'Waiting to be sent',
  succeeded: 'Delivered',
  failed: 'Failed',
};

export default function WebhookDeliveriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { endpoint, deliveries } = loaderData;
  const navigation = useNavigation();
  const notice = formNotice(actionData as FormResult | undefined);
  return (
    <div className="flex flex-col gap-6">
      <header>
        <p className="text-sm">
          <Link to="/dashboard/developers" className="underline">
            Developers
          </Link>
        </p>
        <h1 className="text-3xl font-bold">Webhook deliveries</h1>
        <p className="mt-1 font-mono text-sm break-all text-slate-700 dark:text-slate-300">{endpoint.url}</p>
        {endpoint.failingSince ? (
          <p className="mt-1 text-sm font-medium text-red-800 dark:text-red-300">{`Failing since ${endpoint.failingSince}`}</p>
        ) : null}
      </header>
      {notice ? <FormMessage {...notice} /> : null}
      {deliveries.length === 0 ? (
        <p className="rounded-xl border border-slate-200 p-6 text-slate-700 dark:border-slate-700 dark:text-slate-300">
          No deliveries yet. They appear here when one of the endpoint’s events happens.
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-700 dark:border-slate-700">
          {deliveries.map((delivery) => (
            <li key={delivery.id} className="flex flex-col gap-2 p-4">
              <div className="flex flex-wrap items-center gap-3">
                <div className="min-w-0 flex-1">
                  <p className="font-semibold">
                    <code>{delivery.eventType}</code>
                    {` · ${STATUS_LABELS[delivery.status]}`}
                  </p>
                  <p className="text-sm text-slate-700 dark:text-slate-300">{`Queued ${delivery.createdAt} · msg_${delivery.id}`}</p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="redeliver" />
                  <input type="hidden" name="deliveryId" value={delivery.id} />
                  <SubmitButton
                    pending={navigation.formData?.get('deliveryId') === delivery.id}
                    variant="secondary"
                    size="sm"
                  >
                    Redeliver<span className="sr-only">{` ${delivery.eventType} of ${delivery.createdAt}`}</span>
                  </SubmitButton>
                </Form>
              </div>
              {delivery.attempts.length > 0 ? (
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">{`Attempts of ${delivery.eventType}, newest first`}</caption>
                  <thead>
                    <tr className="text-slate-600 dark:text-slate-400">
                      <th scope="col" className="py-1 pr-4 font-medium">
                        Attempt
                      </th>
                      <th scope="col" className="py-1 pr-4 font-medium">
                        Answer
                      </th>
                      <th scope="col" className="py-1 font-medium">
                        Time
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {delivery.attempts.map((attempt, index) => (
                      <tr key={`${attempt.at}-${index}`}>
                        <td className="py-1 pr-4">{attempt.at}</td>
                        <td className="py-1 pr-4">
                          {attempt.statusCode !== null ? `HTTP ${attempt.statusCode}` : ''}
                          {attempt.error ? `${attempt.statusCode !== null ? ' · ' : ''}${attempt.error}` : ''}
                        </td>
                        <td className="py-1 tabular-nums">{`${attempt.durationMs} ms`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
