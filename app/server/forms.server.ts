/**
 * The one form pipeline on the server: `FormData` → zod schema (through Conform, app/lib/forms.ts)
 * → typed value, or field errors with what was typed → one `FormResult` that every form
 * component reads (app/lib/form-result.ts). Secrets never travel back: any field whose name
 * says password, token, secret or code, or is a card's number or CVC, is left out of the values
 * returned to the page.
 */
import type { Submission } from '@conform-to/react';
import { data } from 'react-router';
import type { z } from 'zod';
import type { FormResult } from '~/lib/form-result';
import { errorMessages, parseFields } from '~/lib/forms';

const SECRET_FIELD = /password|token|secret|code|card_?number|cvc/i;
const CHECK_THE_FORM = 'Please check the form and try again.';

/** Any submission, whatever its schema, for the answers below. */
type AnySubmission = Submission<unknown, string[], unknown>;

/**
 * Validates a submission: `status === 'success'` gives the typed `value`, anything else goes
 * back through `formError`.
 */
export function parseForm<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  return parseFields(formData, schema);
}

interface FormErrorOptions {
  /** The line above the form. Default: `summarize` over the validation errors. */
  message?: string;
  /** Picks the line above the form from the validation errors, in order. Default: the first. */
  summarize?: (messages: string[]) => string;
  hints?: string[];
  /** A line under the message (FormResult's `note`). */
  note?: string;
  /** Errors found after validation (e.g. a taken username), shown under their fields. */
  fieldErrors?: Record<string, string[]>;
  status?: number;
  headers?: HeadersInit;
}

/**
 * The answer to a submission that did not go through (4xx/5xx): its messages, and everything
 * that was typed except secrets, so the form comes back filled in, with or without JavaScript.
 */
export function formError(submission: AnySubmission, options: FormErrorOptions = {}) {
  const summarize = options.summarize ?? ((messages: string[]) => messages[0] ?? CHECK_THE_FORM);
  const hideFields = Object.keys(submission.payload).filter((name) => SECRET_FIELD.test(name));
  // After a valid submission, a message without field errors is a form-level error in Conform's
  // terms; after an invalid one the message only sums up the field errors.
  const formLevel = submission.status === 'success' && !options.fieldErrors && options.message;
  const reply = submission.reply({
    formErrors: formLevel ? [formLevel] : undefined,
    fieldErrors: options.fieldErrors,
    hideFields,
  });
  const result: FormResult = {
    ...reply,
    status: 'error',
    ok: false,
    message: options.message ?? summarize(errorMessages(reply.error)),
    hints: options.hints,
    ...(options.note ? { note: options.note } : {}),
  };
  return data(result, { status: options.status ?? 400, headers: new Headers(options.headers) });
}

/** The answer to a submission that went through without leaving the page: a message, an empty form. */
export function formSuccess(
  submission: AnySubmission,
  message?: string,
  init?: { headers?: HeadersInit; note?: string },
) {
  const result: FormResult = {
    ...submission.reply({ resetForm: true }),
    status: 'success',
    ok: true,
    message,
    ...(init?.note ? { note: init.note } : {}),
  };
  return data(result, { status: 200, headers: new Headers(init?.headers) });
}
