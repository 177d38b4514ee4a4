/** Pieces the Messages pages share: the way back to the list, the message box, a report's reason. */
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Labelled, TEXT_AREA_CLASS } from '~/components/ui/field';
import { fieldError, fieldValue, type FormResult } from '~/lib/form-result';
import { MAX_MESSAGE_LENGTH } from '~/schemas/messages';

/** 'All messages': back to the section's list. */
export function AllMessagesLink({ to }: { to: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-1.5 self-start text-sm font-medium hover:underline">
      <ArrowLeft aria-hidden="true" className="size-4" />
      All messages
    </Link>
  );
}

/** The box a message is written in (`body`), with its limit, its error and what was typed. */
export function MessageBox({
  result,
  initial = '',
  rows = 4,
}: {
  result: FormResult | null | undefined;
  initial?: string;
  rows?: number;
}) {
  return (
    <Labelled
      label="Your message"
      hint={`Up to ${MAX_MESSAGE_LENGTH.toLocaleString('en-US')} characters. Links show as text.`}
      error={fieldError(result, 'body') ?? fieldError(result, 'agentId')}
    >
      {(links) => (
        <textarea
          {...links}
          name="body"
          required
          maxLength={MAX_MESSAGE_LENGTH}
          rows={rows}
          defaultValue={fieldValue(result, 'body') ?? initial}
          className={TEXT_AREA_CLASS}
        />
      )}
    </Labelled>
  );
}

/** Why someone reported a conversation, as they wrote it (text only). */
export function ReportReason({ children }: { children: string }) {
  return (
    <blockquote className="mt-1 border-l-4 border-amber-400 pl-3 break-words whitespace-pre-wrap">
      {children}
    </blockquote>
  );
}
