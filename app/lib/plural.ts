/**
 * Counts in English, the one place they are worded: '1 review', '2 reviews', '0 agents',
 * '1,234 purchases'. Every count printed with its noun goes through `pluralize`.
 */
export function pluralize(count: number, singular: string, plural = `${singular}s`): string {
  return `${count.toLocaleString('en-US')} ${noun(count, singular, plural)}`;
}

/** The noun alone, for a count printed apart from it (a figure above its label). */
export function noun(count: number, singular: string, plural = `${singular}s`): string {
  return count === 1 ? singular : plural;
}
