/**
 * From `FormData` to a typed value or field errors, with Conform's zod adapter: the same call on
 * the server (authoritative, app/server/forms.server.ts) and in the browser (optional checks
 * before posting). Import it lazily from components that every page renders, so zod and
 * Conform stay out of pages without forms (docs/decisions/012-forms-with-conform.md).
 */
import { parseWithZod } from '@conform-to/zod/v4';
import type { z } from 'zod';

/** A plain field name: what every form of ours uses. */
const FLAT_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Only plain names reach Conform. Its path syntax (`list[3].name`) builds nested values, and a
 * name such as `a[100000000]` would make it fill an array of a hundred million entries (seconds
 * to minutes of CPU for a few bytes of request); `__intent__`/`__state__` drive its client-side
 * intents, which our forms do not use. Nothing a form of ours sends is dropped.
 */
function plainFields(formData: FormData): FormData {
  const fields = new FormData();
  for (const [name, value] of formData) if (FLAT_NAME.test(name)) fields.append(name, value);
  return fields;
}

/**
 * Validates a submission against a zod schema. The schemas read form strings as they come
 * (an unchecked box is absent, an empty field is ''), so Conform's automatic coercion is off
 * and the same schema gives the same result on both sides.
 */
export function parseFields<Schema extends z.ZodType>(formData: FormData, schema: Schema) {
  return parseWithZod(plainFields(formData), { schema, disableAutoCoercion: true });
}

/** Every error message of a failed submission, in the order the schema found them. */
export function errorMessages(error: Record<string, string[] | null> | null | undefined): string[] {
  return Object.values(error ?? {}).flatMap((messages) => messages ?? []);
}
