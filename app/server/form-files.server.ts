/**
 * Files in a multipart form (the listing form, the profile picture): which inputs carry a chosen
 * file, and the text fields alone (files never travel back to the page in a form's result).
 */

/** The files of an input, or none when none was chosen (browsers send an empty, nameless part). */
export function chosenFiles(form: FormData, name: string): File[] {
  return form.getAll(name).filter((value): value is File => typeof value !== 'string' && value.size > 0);
}

/** The form's text fields only. */
export function textFields(form: FormData): FormData {
  const fields = new FormData();
  for (const [name, value] of form) if (typeof value === 'string') fields.append(name, value);
  return fields;
}
