/**
 * The one shape every form action answers with when it does not redirect, and that every form
 * component reads (docs/decisions/012-forms-with-conform.md). It is Conform's submission result
 * — field errors by name and what was typed (`initialValue`, never secrets) — plus the one line
 * shown above the form. Type-only import: nothing of Conform reaches a page through this file.
 */
import type { SubmissionResult } from '@conform-to/react';

export interface FormResult extends SubmissionResult<string[]> {
  /** Whether the action did what was asked. */
  ok: boolean;
  /** The one line above the form: the error summary, or what was done. */
  message?: string;
  /** Extra advice under an error message (the sign-in error catalogue's hints), or the fields at fault. */
  hints?: string[];
  /** A line under the message: where the email it mentions can be read (demo mode, DEMO_MAIL_NOTE). */
  note?: string;
}

/** What the user typed into `name` in the submission this result answers, if anything. */
export function fieldValue(result: FormResult | null | undefined, name: string): string | undefined {
  const value = result?.initialValue?.[name];
  if (typeof value === 'string') return value;
  // A name sent twice arrives as a list; the form shows the last, as a browser would keep it.
  if (Array.isArray(value)) {
    const last = value.at(-1);
    return typeof last === 'string' ? last : undefined;
  }
  return undefined;
}

/** The first error of one field, for the message under it. */
export function fieldError(result: FormResult | null | undefined, name: string): string | undefined {
  return result?.error?.[name]?.[0];
}

/** The message above the form, in the props `FormMessage` takes; null when there is nothing to say. */
export function formNotice(
  result: FormResult | null | undefined,
): { kind: 'error' | 'success'; message: string; hints?: string[]; note?: string } | null {
  if (!result?.message) return null;
  return { kind: result.ok ? 'success' : 'error', message: result.message, hints: result.hints, note: result.note };
}
