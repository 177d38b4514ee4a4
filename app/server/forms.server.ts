/**
 * The one form-parsing helper: validates FormData against a zod schema and returns either the
 * typed data or the errors with the submitted values (never passwords) to refill the form.
 */
import { z } from 'zod';

export type FormErrors = {
  fieldErrors: Record<string, string[] | undefined>;
  formErrors: string[];
  values: Record<string, string>;
};

export type ParseResult<T> = { success: true; data: T } | ({ success: false } & FormErrors);

const SECRET_FIELDS = /password|token|secret|code/i;

export function formValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData) {
    if (typeof value === 'string' && !SECRET_FIELDS.test(key) && key !== 'intent') values[key] = value;
  }
  return values;
}

export function parseForm<Schema extends z.ZodType>(formData: FormData, schema: Schema): ParseResult<z.infer<Schema>> {
  const result = schema.safeParse(Object.fromEntries(formData));
  if (result.success) return { success: true, data: result.data };
  const { fieldErrors, formErrors } = z.flattenError(result.error);
  return {
    success: false,
    fieldErrors: fieldErrors as Record<string, string[] | undefined>,
    formErrors,
    values: formValues(formData),
  };
}
