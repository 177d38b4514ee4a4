/**
 * The first message to an agent's seller (`/dashboard/conversations/new?agent=<id>`, or under
 * Messages for sellers): a signed-in user about a published agent of another seller. Asked
 * before, the page is the conversation already there. `?text=` fills the box (Contact Seller's
 * quick messages). The action starts the conversation and sends the message, then shows it.
 */
import { Form, Link, redirect, useNavigation } from 'react-router';
import { GeneralErrorBoundary } from '~/components/error-boundary';
import { AllMessagesLink, MessageBox } from '~/components/messages/message-parts';
import { FormMessage } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { supabaseContext } from '~/context';
import { formNotice } from '~/lib/form-result';
import { errorMeta, pageMeta } from '~/lib/meta';
import { parseIdParam } from '~/schemas/admin';
import { MAX_MESSAGE_LENGTH, MESSAGE_MESSAGES } from '~/schemas/messages';
import { requireSection } from '~/server/guards.server';
import { notFound } from '~/server/http-errors.server';
import { newConversationAction, readNewConversationTarget } from '~/server/messages.server';
import type { Route } from './+types/conversation-new';

export async function loader(args: Route.LoaderArgs) {
  const { viewer, section } = requireSection(args);
  const agentId = parseIdParam(args.url.searchParams.get('agent'));
  const target = agentId ? await readNewConversationTarget(args.context.get(supabaseContext), viewer, agentId) : null;
  if (!target) notFound({ message: MESSAGE_MESSAGES.unknownAgent });
  if (target !== 'own' && target.existing) throw redirect(`${section.path}/${target.existing}#message-form`);
  return {
    target: target === 'own' ? null : target,
    basePath: section.path,
    text: (args.url.searchParams.get('text') ?? '').slice(0, MAX_MESSAGE_LENGTH),
  };
}

export const action = (args: Route.ActionArgs) => newConversationAction(args);

export const meta: Route.MetaFunction = ({ loaderData, error }) =>
  errorMeta(error) ??
  pageMeta(
    loaderData?.target ? `Message ${loaderData.target.sellerName ?? 'the seller'}` : 'New message',
    'Ask the seller a question about their agent.',
  );

export default function NewConversationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { target, basePath, text } = loaderData;
  const navigation = useNavigation();
  const notice = formNotice(actionData);
  if (!target) {
    return (
      <div className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold">New message</h1>
        <p role="status">{MESSAGE_MESSAGES.ownAgent}</p>
        <Link to={basePath} className="font-medium underline">
          Your messages
        </Link>
      </div>
    );
  }
  const seller = target.sellerName ?? 'the seller';
  return (
    <div className="flex flex-col gap-6">
      <AllMessagesLink to={basePath} />
      <header>
        <h1 className="text-3xl font-bold break-words">Message {seller}</h1>
        <p className="mt-1 text-slate-700 dark:text-slate-300">
          About{' '}
          <Link to={`/agent/${target.agentId}`} className="font-medium underline-offset-2 hover:underline">
            {target.agentName}
          </Link>
          . {seller} reads it under Messages and may get an email about it.
        </p>
      </header>
      <Form method="post" className="flex flex-col gap-3">
        {notice ? <FormMessage {...notice} /> : null}
        <input type="hidden" name="agentId" value={target.agentId} />
        <MessageBox result={actionData} initial={text} rows={6} />
        <div>
          <SubmitButton pending={navigation.state !== 'idle' && !!navigation.formData} pendingLabel="Sending...">
            Send message
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
