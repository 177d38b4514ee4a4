/**
 * Update notices (ADR 075): a new version of an agent is announced to every buyer with a completed
 * purchase whose email notifications are on; My Collection marks it "Update available" until they
 * download it (`agent_updates`, derived in the database). The emails go out after the answer, in
 * batches, so publishing never waits for them, and at most once a day per agent.
 */
import type { RouterContextProvider } from 'react-router';
import { connectionContext } from '~/context';
import { appOrigin } from '~/server/auth.server';
import { unwrap } from '~/server/http-errors.server';
import { productMailer, type ProductEmail, type ProductMailer } from '~/server/notifications.server';
import { createServiceSupabase, type AppSupabaseClient } from '~/server/supabase.server';

const BATCH = 20;
/** One email per agent in this time at most, however many versions come out. */
const QUIET_MS = 24 * 60 * 60 * 1000;

/** The email of an update: the agent, its version, the start of its notes, where to download it. */
export function updateNotice(
  origin: string,
  p: { buyerName: string; agentName: string; version: string; releaseNotes: string },
): Pick<ProductEmail, 'subject' | 'text'> {
  const notes = p.releaseNotes.length > 600 ? `${p.releaseNotes.slice(0, 600)}…` : p.releaseNotes;
  const lines = [
    `Hello ${p.buyerName},`,
    `${p.agentName} has a new version: ${p.version}.`,
    '',
    'What changed:',
    notes,
    '',
    `Download it from your collection: ${origin}/dashboard/collection`,
    '',
    `You receive this email because email notifications are on. Turn them off under Notifications: ${origin}/profile?tab=notifications`,
  ];
  return { subject: `Update available: ${p.agentName} ${p.version}`, text: lines.join('\n') };
}

/** Sends the update's emails; never throws (a failure is logged, the version stands). */
export async function notifyAgentUpdate(
  service: AppSupabaseClient,
  mailer: ProductMailer,
  update: { agentId: string; version: string; releaseNotes: string },
): Promise<number> {
  try {
    const [agent, recipients, recent] = await Promise.all([
      service.from('agents').select('name').eq('id', update.agentId).single(),
      service.rpc('agent_update_recipients', { agent: update.agentId }),
      service
        .from('agent_versions')
        .select('id', { count: 'exact', head: true })
        .eq('agent_id', update.agentId)
        .gt('created_at', new Date(Date.now() - QUIET_MS).toISOString()),
    ]);
    const { name } = unwrap(agent, 'updated agent');
    // Versions in quick succession (a CI loop) mail buyers once a day at most; the mark in My
    // Collection shows the latest either way.
    unwrap(recent, 'recent versions');
    if ((recent.count ?? 0) > 1) return 0;
    const people = unwrap(recipients, 'update recipients');
    for (let start = 0; start < people.length; start += BATCH) {
      await Promise.all(
        people.slice(start, start + BATCH).map((person) =>
          mailer.send({
            to: person.email,
            type: 'update_notice',
            ...updateNotice(mailer.origin, { buyerName: person.username, agentName: name, ...update }),
          }),
        ),
      );
    }
    return people.length;
  } catch (error) {
    console.error(`[mail] the update notices of agent ${update.agentId} were not sent:`, error);
    return 0;
  }
}

/** Announces a new version after the request's answer (not awaited). */
export function announceVersion(
  context: Readonly<RouterContextProvider>,
  request: Request,
  update: { agentId: string; version: string; releaseNotes: string },
): void {
  const connection = context.get(connectionContext);
  void notifyAgentUpdate(createServiceSupabase(connection), productMailer(connection, appOrigin(request)), update);
}
