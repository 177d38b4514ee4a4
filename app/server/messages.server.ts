/**
 * Messages between a buyer and a seller (ADR 070, ADR 071): the lists, one conversation, and the
 * actions that write. Every read and write goes through the viewer's own client, so row-level
 * security and the database functions (migrations 20261217000100 to 20261219000100) decide who
 * reads and who sends; this module only turns their answers into pages, messages and statuses.
 * The one write of the service role is the email notice's claim (`noticeNewMessage`).
 */
import type { PostgrestError } from '@supabase/supabase-js';
import { supabaseContext, connectionContext } from '~/context';
import { conversationsPath, findSection } from '~/lib/dashboard-nav';
import { hrefWith } from '~/lib/href-with';
import { refusals, type Refusal } from '~/lib/refusal';
import { toRole } from '~/lib/permissions';
import type { Viewer } from '~/lib/viewer';
import { parseIdParam } from '~/schemas/admin';
import {
  ConversationActionSchema,
  MESSAGE_MESSAGES,
  NewConversationSchema,
  type ConversationAction,
} from '~/schemas/messages';
import { appOrigin } from '~/server/auth.server';
import { redirectWithFlash } from '~/server/cookies.server';
import { formError, parseForm } from '~/server/forms.server';
import { requireSection, type GuardArgs } from '~/server/guards.server';
import { notFound, unavailableMessage, unwrap } from '~/server/http-errors.server';
import { productMailer, type ProductMailer } from '~/server/notifications.server';
import { DASHBOARD_PAGE_SIZE, usernames, type Page } from '~/server/paged-lists.server';
import { pageCount } from '~/lib/pagination';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';
import { redirect } from 'react-router';

/** Messages shown at once; earlier ones are a link away (`?before=`). */
export const MESSAGES_PER_PAGE = 50;

/** At most one email notice per conversation and recipient in this time. */
export const NOTICE_INTERVAL_MS = 15 * 60 * 1000;

export interface ConversationSummary {
  id: string;
  agentName: string | null;
  otherName: string | null;
  /** The viewer's side of it. */
  role: 'buyer' | 'seller';
  lastMessageAt: string;
  /** The start of the last message; null before the first. */
  lastMessage: string | null;
  lastFromMe: boolean;
  unread: number;
  blocked: boolean;
}

/** One page of the signed-in user's conversations, newest first (`my_conversations`). */
export async function listConversations(
  client: AppSupabaseClient,
  viewerId: string,
  page: number,
): Promise<Page<ConversationSummary>> {
  const read = async (at: number) =>
    unwrap(
      await client.rpc('my_conversations', {
        page_from: (at - 1) * DASHBOARD_PAGE_SIZE,
        page_size: DASHBOARD_PAGE_SIZE,
      }),
      'conversations',
    );
  let current = page;
  let rows = await read(current);
  if (rows.length === 0 && current > 1) {
    // Past the last page (the window's count is on every row, so ask the first page for it).
    const total = Number((await read(1))[0]?.total ?? 0);
    current = Math.max(pageCount(total, DASHBOARD_PAGE_SIZE), 1);
    rows = await read(current);
  }
  const total = Number(rows[0]?.total ?? 0);
  return {
    page: current,
    pageCount: pageCount(total, DASHBOARD_PAGE_SIZE),
    total,
    rows: rows.map((row) => ({
      id: row.id,
      agentName: row.agent_name,
      otherName: row.other_username,
      role: row.role === 'seller' ? 'seller' : 'buyer',
      lastMessageAt: row.last_message_at,
      lastMessage: row.last_message,
      lastFromMe: row.last_sender_id === viewerId,
      unread: Number(row.unread),
      blocked: row.blocked_by !== null,
    })),
  };
}

export interface OpenReport {
  id: string;
  conversationId: string;
  reporterName: string | null;
  reason: string;
  createdAt: string;
  buyerName: string | null;
  sellerName: string | null;
  agentName: string | null;
}

/** The reports admins have not closed yet, oldest first (row-level security: admins read all). */
export async function listOpenReports(client: AppSupabaseClient, conversationId?: string): Promise<OpenReport[]> {
  let query = client
    .from('conversation_reports')
    .select('id, conversation_id, reporter_id, reason, created_at, conversations(buyer_id, seller_id, agents(name))')
    .is('resolved_at', null)
    .order('created_at', { ascending: true })
    .limit(100);
  if (conversationId) query = query.eq('conversation_id', conversationId);
  const rows = unwrap(await query, 'reported conversations');
  const names = await usernames(
    client,
    rows.flatMap((row) => [row.reporter_id, row.conversations?.buyer_id ?? null, row.conversations?.seller_id ?? null]),
  );
  const name = (id: string | null | undefined) => (id ? (names.get(id) ?? null) : null);
  return rows.map((row) => ({
    id: row.id,
    conversationId: row.conversation_id,
    reporterName: name(row.reporter_id),
    reason: row.reason,
    createdAt: row.created_at,
    buyerName: name(row.conversations?.buyer_id),
    sellerName: name(row.conversations?.seller_id),
    agentName: row.conversations?.agents?.name ?? null,
  }));
}

export interface MessageView {
  id: string;
  /** Who wrote it, as the page names them; null for a deleted account. */
  senderName: string | null;
  fromViewer: boolean;
  body: string;
  createdAt: string;
}

export interface ConversationView {
  id: string;
  agent: { id: string; name: string | null } | null;
  buyerName: string | null;
  sellerName: string | null;
  /** `admin`: an administrator reading a reported conversation, not a participant. */
  viewerSide: 'buyer' | 'seller' | 'admin';
  /** A block stands between the two people in every conversation between them (ADR 070). */
  blockedBy: 'viewer' | 'other' | null;
  /** The conversation the block was placed in, when it is another one (unblocked there). */
  blockedIn: string | null;
  /** Oldest first: the last `MESSAGES_PER_PAGE` before the cursor. */
  messages: MessageView[];
  /** The id to read earlier messages before, when there are any. */
  earlierBefore: string | null;
  /** The viewer's own open report of it (participants), or every open report (admins). */
  reports: OpenReport[];
}

const CONVERSATION_COLUMNS =
  'id, agent_id, buyer_id, seller_id, blocked_by, buyer_read_at, seller_read_at, last_message_at, agents(name)' as const;

/**
 * One conversation as the viewer may read it, or null (not theirs, no open report for an admin,
 * or no such conversation: row-level security answers all three alike). A participant's reading
 * marks it read. `before`: a message id, to read the messages before it.
 */
export async function readConversation(
  client: AppSupabaseClient,
  viewer: Viewer,
  conversationId: string,
  before: string | null,
): Promise<ConversationView | null> {
  // Three reads at once: the conversation, its messages (none when it is not the viewer's) and
  // what the page shows around them (`conversation_context`).
  let query = client
    .from('messages')
    .select('id, sender_id, body, created_at')
    .eq('conversation_id', conversationId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(MESSAGES_PER_PAGE + 1);
  if (before) {
    const cursor = unwrap(
      await client
        .from('messages')
        .select('id, created_at')
        .eq('conversation_id', conversationId)
        .eq('id', before)
        .maybeSingle(),
      'message cursor',
    );
    if (cursor)
      query = query.or(`created_at.lt.${cursor.created_at},and(created_at.eq.${cursor.created_at},id.lt.${cursor.id})`);
  }
  const [talk, rows, context] = await Promise.all([
    client
      .from('conversations')
      .select(CONVERSATION_COLUMNS)
      .eq('id', conversationId)
      .maybeSingle()
      .then((result) => unwrap(result, 'conversation')),
    query.then((result) => unwrap(result, 'messages')),
    client
      .rpc('conversation_context', { conversation: conversationId })
      .then((result) => unwrap(result, 'conversation context')[0] ?? null),
  ]);
  if (!talk || !context) return null;
  const viewerSide = talk.buyer_id === viewer.id ? 'buyer' : talk.seller_id === viewer.id ? 'seller' : 'admin';
  const names = new Map<string, string | null>([
    [talk.buyer_id, context.buyer_username],
    [talk.seller_id, context.seller_username],
  ]);

  // Mark read only when something new from the other is there (polling reads every few seconds).
  const readAt = viewerSide === 'buyer' ? talk.buyer_read_at : talk.seller_read_at;
  const unread = rows.some((row) => row.sender_id !== viewer.id && row.created_at > readAt);
  const [reports] = await Promise.all([
    viewerSide === 'admin'
      ? listOpenReports(client, talk.id)
      : Promise.resolve<OpenReport[]>(
          context.my_report_id && context.my_report_at
            ? [
                {
                  id: context.my_report_id,
                  conversationId: talk.id,
                  reporterName: viewer.username,
                  reason: '',
                  createdAt: context.my_report_at,
                  buyerName: null,
                  sellerName: null,
                  agentName: null,
                },
              ]
            : [],
        ),
    viewerSide !== 'admin' && !before && unread
      ? client.rpc('mark_conversation_read', { conversation: talk.id }).then((result) => unwrap(result, 'mark read'))
      : null,
  ]);

  const page = rows.slice(0, MESSAGES_PER_PAGE);
  return {
    id: talk.id,
    agent: talk.agent_id ? { id: talk.agent_id, name: talk.agents?.name ?? null } : null,
    buyerName: names.get(talk.buyer_id) ?? null,
    sellerName: names.get(talk.seller_id) ?? null,
    viewerSide,
    // A block between the two people holds in every conversation of theirs (ADR 070).
    blockedBy: !context.blocked_by ? null : context.blocked_by === viewer.id ? 'viewer' : 'other',
    blockedIn: context.blocked_in && context.blocked_in !== talk.id ? context.blocked_in : null,
    messages: page.reverse().map((row) => ({
      id: row.id,
      senderName: row.sender_id ? (names.get(row.sender_id) ?? null) : null,
      fromViewer: row.sender_id === viewer.id,
      body: row.body,
      createdAt: row.created_at,
    })),
    earlierBefore: rows.length > MESSAGES_PER_PAGE ? (page[0]?.id ?? null) : null,
    reports,
  };
}

/** The database's refusals of a messaging function, by SQLSTATE, for each thing asked. */
const MESSAGE_REFUSALS = refusals({
  tooFast: { message: MESSAGE_MESSAGES.tooFast, status: 429 },
  tooManyConversations: { message: MESSAGE_MESSAGES.tooManyConversations, status: 429 },
  tooManyReports: { message: MESSAGE_MESSAGES.tooManyReports, status: 429 },
  nothingToReport: { message: MESSAGE_MESSAGES.nothingToReport, status: 409 },
  blocked: { message: MESSAGE_MESSAGES.blocked, status: 403 },
  cannotStart: { message: MESSAGE_MESSAGES.cannotStart, status: 403 },
  onlyBlockerUnblocks: { message: MESSAGE_MESSAGES.onlyBlockerUnblocks, status: 403 },
  unknownConversation: { message: MESSAGE_MESSAGES.unknownConversation, status: 404 },
  unknownAgent: { message: MESSAGE_MESSAGES.unknownAgent, status: 404, field: 'agentId' },
  ownAgent: { message: MESSAGE_MESSAGES.ownAgent, status: 400, field: 'agentId' },
  unknownReport: { message: MESSAGE_MESSAGES.unknownReport, status: 404 },
  empty: { message: MESSAGE_MESSAGES.empty, status: 400, field: 'body' },
  reasonEmpty: { message: MESSAGE_MESSAGES.reasonEmpty, status: 400, field: 'reason' },
  notAllowed: { message: MESSAGE_MESSAGES.unknownConversation, status: 403 },
});

type Step = 'start' | ConversationAction['intent'];

/** What a refusal of `step` means to the person who asked; other errors are thrown on. */
function refusalOf(step: Step, error: PostgrestError): Refusal {
  switch (error.code) {
    case 'PT429':
      if (step === 'start') return MESSAGE_REFUSALS.tooManyConversations;
      return step === 'report' ? MESSAGE_REFUSALS.tooManyReports : MESSAGE_REFUSALS.tooFast;
    case 'PT409':
      if (step === 'report') return MESSAGE_REFUSALS.nothingToReport;
      break;
    case 'PT403':
      if (step === 'start') return MESSAGE_REFUSALS.cannotStart;
      return step === 'unblock' ? MESSAGE_REFUSALS.onlyBlockerUnblocks : MESSAGE_REFUSALS.blocked;
    case 'PT404':
      if (step === 'start') return MESSAGE_REFUSALS.unknownAgent;
      return step === 'resolve' ? MESSAGE_REFUSALS.unknownReport : MESSAGE_REFUSALS.unknownConversation;
    case '22023':
      // What the form's own check lets through and the database refuses: text a reader cannot see.
      if (step === 'start') return MESSAGE_REFUSALS.ownAgent;
      return step === 'report' ? MESSAGE_REFUSALS.reasonEmpty : MESSAGE_REFUSALS.empty;
    case '42501':
      return MESSAGE_REFUSALS.notAllowed;
  }
  unwrap({ data: null, error }, `messages: ${step}`);
  throw error;
}

class MessageRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

/** Runs one messaging function; its refusal becomes a `MessageRefusal`. */
async function call<T>(step: Step, run: PromiseLike<{ data: T | null; error: PostgrestError | null }>): Promise<T> {
  const { data, error } = await run;
  if (error) throw new MessageRefusal(refusalOf(step, error));
  return data as T;
}

/** The subject and text of the notice of a new message. */
export function messageNotice(
  origin: string,
  p: { recipientName: string; senderName: string; agentName: string | null; body: string; href: string },
) {
  const about = p.agentName ? ` about ${p.agentName}` : '';
  const excerpt = p.body.length > 300 ? `${p.body.slice(0, 300)}…` : p.body;
  const lines = [
    `Hello ${p.recipientName},`,
    `${p.senderName} sent you a message${about} on AgentMarket:`,
    '',
    ...excerpt.split('\n').map((line) => `> ${line}`),
    '',
    `Read and answer it: ${origin}${p.href}`,
    '',
    `You get at most one email a quarter hour about new messages. Turn email notifications off under Notifications: ${origin}/profile?tab=notifications`,
  ];
  return { subject: `New message from ${p.senderName}${about}`, text: lines.join('\n') };
}

/**
 * Emails the other participant about a new message, when their email notifications are on and
 * no notice went to them in the last quarter hour (about this conversation or any other). The
 * claim is one conditional update (the service role's), so parallel sends mail once. Never throws.
 */
export async function noticeNewMessage(
  service: AppSupabaseClient,
  mailer: ProductMailer,
  p: { conversationId: string; senderId: string; body: string },
): Promise<void> {
  try {
    const talk = unwrap(
      await service
        .from('conversations')
        .select('id, buyer_id, seller_id, agents(name)')
        .eq('id', p.conversationId)
        .single(),
      'notice: conversation',
    );
    const recipientIsSeller = talk.buyer_id === p.senderId;
    const recipientId = recipientIsSeller ? talk.seller_id : talk.buyer_id;
    const [people, settings] = await Promise.all([
      service.from('users').select('id, username, email, user_type').in('id', [recipientId, p.senderId]),
      service.from('user_settings').select('email_notifications').eq('user_id', recipientId).maybeSingle(),
    ]);
    if (unwrap(settings, 'notice: settings')?.email_notifications === false) return;
    const byId = new Map(unwrap(people, 'notice: people').map((person) => [person.id, person]));
    const recipient = byId.get(recipientId);
    if (!recipient?.email) return;

    const column = recipientIsSeller ? 'seller_notified_at' : 'buyer_notified_at';
    const now = new Date();
    const cutoff = new Date(now.getTime() - NOTICE_INTERVAL_MS).toISOString();
    // At most one notice a quarter hour to a person, whichever conversation it is about: many
    // conversations started at once do not fill their inbox.
    const recent = unwrap(
      await service
        .from('conversations')
        .select('id')
        .or(
          `and(buyer_id.eq.${recipientId},buyer_notified_at.gt.${cutoff}),and(seller_id.eq.${recipientId},seller_notified_at.gt.${cutoff})`,
        )
        .limit(1),
      'notice: recent',
    );
    if (recent.length > 0) return;
    const stamp = recipientIsSeller
      ? { seller_notified_at: now.toISOString() }
      : { buyer_notified_at: now.toISOString() };
    const claimed = unwrap(
      await service
        .from('conversations')
        .update(stamp)
        .eq('id', talk.id)
        .or(`${column}.is.null,${column}.lt.${cutoff}`)
        .select('id'),
      'notice: claim',
    );
    if (claimed.length === 0) return;
    const notice = messageNotice(mailer.origin, {
      recipientName: recipient.username,
      senderName: byId.get(p.senderId)?.username ?? 'Someone',
      agentName: talk.agents?.name ?? null,
      body: p.body,
      href: `${conversationsPath(toRole(recipient.user_type))}/${talk.id}`,
    });
    await mailer.send({ to: recipient.email, type: 'message_notice', ...notice });
  } catch (error) {
    console.error(`[mail] the notice of a message in ${p.conversationId} was not sent:`, error);
  }
}

type RouteArgs = GuardArgs & { request: Request; pattern: string; params: Record<string, string | undefined> };

/** The conversation id of the URL, or the 404 page. */
export function conversationIdParam(value: string | undefined): string {
  return parseIdParam(value ?? null) ?? notFound({ message: MESSAGE_MESSAGES.unknownConversation });
}

/** The section's path for the page's links: the Messages section or the buyers' entry. */
export function sectionPathOf(args: { pattern: string }): string {
  return findSection(`/${args.pattern.replace(/^\/+/, '')}`)?.path ?? '/dashboard/conversations';
}

/** Answers a refusal or an outage as a message above the form; anything else is thrown. */
function failed(submission: Parameters<typeof formError>[0], thrown: unknown) {
  if (thrown instanceof MessageRefusal) {
    const { message, status, field } = thrown.refusal;
    return formError(
      submission,
      field ? { message, status, fieldErrors: { [field]: [message] } } : { message, status },
    );
  }
  const outage = unavailableMessage(thrown);
  if (!outage) throw thrown;
  return formError(submission, { message: outage, status: 503 });
}

function mailerFor(args: RouteArgs) {
  const connection = args.context.get(connectionContext);
  return { service: createServiceSupabase(connection), mailer: productMailer(connection, appOrigin(args.request)) };
}

/** The conversation page's action: send, block, unblock, report (participants), resolve (admins). */
export async function conversationAction(args: RouteArgs) {
  const { viewer } = requireSection(args);
  const conversationId = conversationIdParam(args.params.conversationId);
  const client = args.context.get(supabaseContext);
  const submission = parseForm(await args.request.formData(), ConversationActionSchema);
  if (submission.status !== 'success') return formError(submission);
  const change = submission.value;
  const here = hrefWith(args.url.pathname, args.url.search, { before: null });
  let message: string;
  try {
    switch (change.intent) {
      case 'send': {
        await call('send', client.rpc('send_message', { conversation: conversationId, body: change.body }));
        const { service, mailer } = mailerFor(args);
        await noticeNewMessage(service, mailer, { conversationId, senderId: viewer.id, body: change.body });
        // The page itself shows what was sent: no flash.
        return redirect(`${here}#message-form`, 303);
      }
      case 'block':
        await call('block', client.rpc('set_conversation_blocked', { conversation: conversationId, blocked: true }));
        message = MESSAGE_MESSAGES.blockedDone;
        break;
      case 'unblock':
        await call('unblock', client.rpc('set_conversation_blocked', { conversation: conversationId, blocked: false }));
        message = MESSAGE_MESSAGES.unblockedDone;
        break;
      case 'report':
        await call(
          'report',
          client.rpc('report_conversation', { conversation: conversationId, reason: change.reason }),
        );
        message = MESSAGE_MESSAGES.reportedDone;
        break;
      case 'resolve':
        await call('resolve', client.rpc('resolve_conversation_report', { report: change.reportId }));
        // Closed: the admin may no longer read it, so back to the list.
        return redirectWithFlash(args.request, sectionPathOf(args), {
          kind: 'success',
          message: MESSAGE_MESSAGES.resolvedDone,
        });
    }
  } catch (thrown) {
    return failed(submission, thrown);
  }
  return redirectWithFlash(args.request, here, { kind: 'success', message });
}

/** The first message to an agent's seller: the conversation (the same one if asked before), then the message. */
export async function newConversationAction(args: RouteArgs) {
  const { viewer } = requireSection(args);
  const client = args.context.get(supabaseContext);
  const submission = parseForm(await args.request.formData(), NewConversationSchema);
  if (submission.status !== 'success') return formError(submission);
  const { agentId, body } = submission.value;
  let conversationId: string;
  try {
    conversationId = await call<string>('start', client.rpc('start_conversation', { agent: agentId }));
    await call('send', client.rpc('send_message', { conversation: conversationId, body }));
  } catch (thrown) {
    return failed(submission, thrown);
  }
  const { service, mailer } = mailerFor(args);
  await noticeNewMessage(service, mailer, { conversationId, senderId: viewer.id, body });
  return redirect(`${sectionPathOf(args)}/${conversationId}#message-form`, 303);
}

export interface NewConversationTarget {
  agentId: string;
  agentName: string;
  sellerName: string | null;
  /** A conversation about it with messages already: the page goes there instead. */
  existing: string | null;
}

/**
 * Who the first message goes to: a published agent of another seller (the database's rule in
 * `start_conversation`, read here to draw the page; the action asks the database again).
 */
export async function readNewConversationTarget(
  client: AppSupabaseClient,
  viewer: Viewer,
  agentId: string,
): Promise<NewConversationTarget | 'own' | null> {
  const agent = unwrap(
    await client.from('agents').select('id, name, seller_id, status').eq('id', agentId).maybeSingle(),
    'agent to message about',
  );
  if (!agent || agent.status !== 'published') return null;
  if (agent.seller_id === viewer.id) return 'own';
  const [existing, names] = await Promise.all([
    client
      .from('conversations')
      .select('id')
      .eq('agent_id', agent.id)
      .eq('buyer_id', viewer.id)
      .maybeSingle()
      .then((result) => unwrap(result, 'existing conversation')),
    usernames(client, [agent.seller_id]),
  ]);
  // A conversation whose first message did not go through (the minute's limit) stays this page,
  // so the refusal shows beside what was typed.
  const written =
    existing &&
    unwrap(
      await client.from('messages').select('id').eq('conversation_id', existing.id).limit(1),
      'existing conversation messages',
    ).length > 0;
  return {
    agentId: agent.id,
    agentName: agent.name,
    sellerName: agent.seller_id ? (names.get(agent.seller_id) ?? null) : null,
    existing: written ? existing.id : null,
  };
}
