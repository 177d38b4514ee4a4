/**
 * One conversation (ADR 071): its messages, oldest first, the last fifty and earlier ones a link
 * away (`?before=`); the reply form; Block and Report. Row-level security decides who reads it
 * (the two participants; an admin while a report is open, who may close the report). Messages are
 * text: links show as typed, never as HTML. With JavaScript the page looks for new messages every
 * few seconds and sends without a reload; without it, every form is a POST and a redirect.
 */
import { Ban, Flag } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AllMessagesLink, MessageBox, ReportReason } from '~/components/messages/message-parts';
import { buttonClass } from '~/components/ui/button';
import { FormMessage, Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { timeZoneFromCookieHeader } from '~/lib/client-hints';
import { DELETED_ACCOUNT, formatDateTime } from '~/lib/dashboard-format';
import { fieldError, fieldValue, formNotice, type FormResult } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { usePolling } from '~/lib/use-polling';
import { parseIdParam } from '~/schemas/admin';
import { MAX_REPORT_REASON_LENGTH, MESSAGE_MESSAGES } from '~/schemas/messages';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import {
  conversationAction,
  conversationIdParam,
  readConversation,
  type ConversationView,
  type MessageView,
} from '~/server/messages.server';
import type { Route } from './+types/conversation';

/** How often an open conversation looks for new messages (JavaScript on). */
const POLL_MS = 4_000;

export async function loader(args: Route.LoaderArgs) {
  const { viewer, section } = requireSection(args);
  const conversationId = conversationIdParam(args.params.conversationId);
  const before = parseIdParam(args.url.searchParams.get('before'));
  const conversation = await readConversation(args.context.get(supabaseContext), viewer, conversationId, before);
  if (!conversation) notFound({ message: MESSAGE_MESSAGES.unknownConversation });
  return {
    conversation,
    /** The latest messages (not a look back at earlier ones): the page keeps them current. */
    latest: before === null,
    basePath: section.path,
    timeZone: timeZoneFromCookieHeader(args.request.headers.get('cookie')),
  };
}

export const action = (args: Route.ActionArgs) => conversationAction(args);

/** The other person, as this viewer names them. */
function otherName(conversation: ConversationView): string {
  if (conversation.viewerSide === 'buyer') return conversation.sellerName ?? DELETED_ACCOUNT;
  if (conversation.viewerSide === 'seller') return conversation.buyerName ?? DELETED_ACCOUNT;
  return `${conversation.buyerName ?? DELETED_ACCOUNT} and ${conversation.sellerName ?? DELETED_ACCOUNT}`;
}

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(
    loaderData ? `Messages: ${otherName(loaderData.conversation)}` : 'Messages',
    'A conversation between a buyer and a seller on AgentMarket.',
  );

export default function ConversationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { conversation, basePath, timeZone, latest } = loaderData;
  const participant = conversation.viewerSide !== 'admin';
  usePolling(POLL_MS, latest);
  const notice = formNotice(actionData);
  const intent = fieldValue(actionData, 'intent');
  return (
    <div className="flex flex-col gap-6">
      <AllMessagesLink to={basePath} />
      <header>
        <h1 className="text-3xl font-bold break-words">{otherName(conversation)}</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          {conversation.viewerSide === 'seller'
            ? 'Your customer, '
            : conversation.viewerSide === 'buyer'
              ? 'Seller, '
              : ''}
          {conversation.agent?.name ? (
            <>
              about{' '}
              <Link to={`/agent/${conversation.agent.id}`} className="font-medium underline-offset-2 hover:underline">
                {conversation.agent.name}
              </Link>
            </>
          ) : (
            'about an agent no longer listed'
          )}
        </p>
      </header>

      {notice && intent !== 'send' && intent !== 'report' ? <FormMessage {...notice} /> : null}

      {conversation.viewerSide === 'admin' ? <AdminReports conversation={conversation} timeZone={timeZone} /> : null}

      <section aria-labelledby="messages-title" className="flex flex-col gap-3">
        <h2 id="messages-title" className="sr-only">
          Messages
        </h2>
        {conversation.earlierBefore ? (
          <Link
            to={`?before=${conversation.earlierBefore}`}
            preventScrollReset
            className={`${buttonClass('secondary', 'sm')} self-center`}
          >
            Show earlier messages
          </Link>
        ) : null}
        {conversation.messages.length === 0 ? (
          <p className="text-slate-700 dark:text-slate-300">No messages yet. Write the first one below.</p>
        ) : (
          <div role="log" aria-labelledby="messages-title">
            <ol className="flex flex-col gap-3">
              {conversation.messages.map((message) => (
                <MessageItem key={message.id} message={message} timeZone={timeZone} />
              ))}
            </ol>
          </div>
        )}
      </section>

      {participant ? <BlockNotice conversation={conversation} basePath={basePath} /> : null}
      {participant && conversation.blockedBy === null ? (
        <Composer result={intent === 'send' ? actionData : null} to={otherName(conversation)} />
      ) : null}
      {participant ? (
        <SafetyTools conversation={conversation} result={intent === 'report' ? actionData : null} timeZone={timeZone} />
      ) : null}
    </div>
  );
}

function MessageItem({ message, timeZone }: { message: MessageView; timeZone: string }) {
  return (
    <li className={`flex ${message.fromViewer ? 'justify-end' : 'justify-start'}`}>
      <article
        aria-label={`${message.fromViewer ? 'You' : (message.senderName ?? DELETED_ACCOUNT)}, ${formatDateTime(message.createdAt, timeZone)}`}
        className={`max-w-[min(36rem,90%)] rounded-2xl px-4 py-3 ${
          message.fromViewer
            ? 'bg-brand-50 text-slate-900 dark:bg-brand-900 dark:text-white'
            : 'bg-slate-100 text-slate-900 dark:bg-slate-800 dark:text-slate-100'
        }`}
      >
        <p className="flex flex-wrap items-baseline gap-x-2 text-xs">
          <span className="font-semibold">{message.fromViewer ? 'You' : (message.senderName ?? DELETED_ACCOUNT)}</span>
          <time dateTime={message.createdAt} className="text-slate-700 dark:text-slate-300">
            {formatDateTime(message.createdAt, timeZone)}
          </time>
        </p>
        {/* Text only: React escapes it, and a link stays the characters that were typed. */}
        <p className="mt-1 break-words whitespace-pre-wrap">{message.body}</p>
      </article>
    </li>
  );
}

/** The reply form: posts and comes back empty, with the new message above it. */
function Composer({ result, to }: { result: FormResult | null | undefined; to: string }) {
  const navigation = useNavigation();
  const sending = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'send';
  const form = useRef<HTMLFormElement>(null);
  const wasSending = useRef(false);
  // Sent (the action redirected, so there is no result): empty the box for the next message.
  useEffect(() => {
    if (wasSending.current && !sending && !result) form.current?.reset();
    wasSending.current = sending;
  }, [sending, result]);
  const notice = formNotice(result);
  return (
    <Form ref={form} method="post" id="message-form" aria-labelledby="composer-title" className="flex flex-col gap-3">
      <h2 id="composer-title" className="text-lg font-semibold">
        Write to {to}
      </h2>
      {notice ? <FormMessage {...notice} /> : null}
      <MessageBox result={result} />
      <div>
        <SubmitButton name="intent" value="send" pending={sending} pendingLabel="Sending...">
          Send message
        </SubmitButton>
      </div>
    </Form>
  );
}

function BlockNotice({ conversation, basePath }: { conversation: ConversationView; basePath: string }) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'unblock';
  if (conversation.blockedBy === null) return null;
  if (conversation.blockedBy === 'viewer' && conversation.blockedIn) {
    return (
      <p role="status" className="rounded-lg border border-slate-300 p-4 dark:border-slate-700">
        You blocked {otherName(conversation)} in{' '}
        <Link to={`${basePath}/${conversation.blockedIn}`} className="font-medium underline">
          another conversation
        </Link>
        . Neither of you can send messages until you unblock them there.
      </p>
    );
  }
  if (conversation.blockedBy === 'other') {
    return (
      <p role="status" className="rounded-lg border border-slate-300 p-4 dark:border-slate-700">
        {otherName(conversation)} blocked messages between you. You cannot send messages here.
      </p>
    );
  }
  return (
    <Form
      method="post"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-300 p-4 dark:border-slate-700"
    >
      <p className="flex-1">You blocked this conversation. Neither of you can send messages until you unblock it.</p>
      <SubmitButton name="intent" value="unblock" pending={busy} variant="secondary" size="sm">
        Unblock {otherName(conversation)}
      </SubmitButton>
    </Form>
  );
}

/** Block and Report, folded away under one summary (a native disclosure, with or without JavaScript). */
function SafetyTools({
  conversation,
  result,
  timeZone,
}: {
  conversation: ConversationView;
  result: FormResult | null | undefined;
  timeZone: string;
}) {
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state !== 'idle' && navigation.formData?.get('intent') === intent;
  const other = otherName(conversation);
  const myReport = conversation.reports[0];
  const notice = formNotice(result);
  return (
    <details
      open={Boolean(result) || undefined}
      className="rounded-xl border border-slate-200 p-4 dark:border-slate-700 [&_summary]:cursor-pointer"
    >
      <summary className="font-semibold">Report or block</summary>
      <div className="mt-4 flex flex-col gap-6">
        {conversation.blockedBy === null ? (
          <Form method="post" className="flex flex-col items-start gap-2">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Blocking stops all messages between you and {other}, in every conversation, until you unblock.
            </p>
            <SubmitButton name="intent" value="block" pending={pending('block')} variant="danger" size="sm">
              <Ban aria-hidden="true" className="size-4" />
              Block {other}
            </SubmitButton>
          </Form>
        ) : null}
        {myReport ? (
          <p role="status" className="text-sm">
            You reported this conversation on{' '}
            <time dateTime={myReport.createdAt}>{formatDateTime(myReport.createdAt, timeZone)}</time>. An administrator
            will read it and your reason.
          </p>
        ) : (
          <Form method="post" className="flex flex-col gap-3" aria-labelledby="report-title">
            <h3 id="report-title" className="font-semibold">
              Report this conversation
            </h3>
            {notice ? <FormMessage {...notice} /> : null}
            <Labelled
              label="Why are you reporting it?"
              hint={`Up to ${MAX_REPORT_REASON_LENGTH} characters. An administrator reads the conversation and your reason.`}
              error={fieldError(result, 'reason')}
            >
              {(links) => (
                <textarea
                  {...links}
                  name="reason"
                  required
                  maxLength={MAX_REPORT_REASON_LENGTH}
                  rows={3}
                  defaultValue={fieldValue(result, 'reason') ?? ''}
                  className={TEXT_AREA_CLASS}
                />
              )}
            </Labelled>
            <div>
              <SubmitButton name="intent" value="report" pending={pending('report')} variant="secondary" size="sm">
                <Flag aria-hidden="true" className="size-4" />
                Report conversation
              </SubmitButton>
            </div>
          </Form>
        )}
      </div>
    </details>
  );
}

/** What an admin reading a reported conversation sees: each open report, and Close report. */
function AdminReports({ conversation, timeZone }: { conversation: ConversationView; timeZone: string }) {
  const navigation = useNavigation();
  return (
    <section
      aria-labelledby="open-reports-title"
      className="flex flex-col gap-3 rounded-xl border border-amber-300 p-4 dark:border-amber-700"
    >
      <h2 id="open-reports-title" className="text-xl font-semibold">
        Open reports ({conversation.reports.length})
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        You can read this conversation while a report on it is open. Closing the last report closes it to you.
      </p>
      <ul className="flex flex-col gap-3">
        {conversation.reports.map((report) => (
          <li key={report.id} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
            <p>
              <span className="font-semibold">{report.reporterName ?? DELETED_ACCOUNT}</span> on{' '}
              <time dateTime={report.createdAt}>{formatDateTime(report.createdAt, timeZone)}</time>:
            </p>
            <ReportReason>{report.reason}</ReportReason>
            <Form method="post" className="mt-2">
              <input type="hidden" name="reportId" value={report.id} />
              <SubmitButton
                name="intent"
                value="resolve"
                pending={navigation.state !== 'idle' && navigation.formData?.get('reportId') === report.id}
                variant="secondary"
                size="sm"
              >
                Close report<span className="sr-only"> by {report.reporterName ?? DELETED_ACCOUNT}</span>
              </SubmitButton>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
