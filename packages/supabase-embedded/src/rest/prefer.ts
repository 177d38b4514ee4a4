/** The `Prefer` header; unknown preferences are ignored. */
export interface Preferences {
  count?: 'exact' | 'planned' | 'estimated';
  returning: 'minimal' | 'representation' | 'headers-only';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missingDefault: boolean;
  /** Preferences honoured, for `Preference-Applied`. */
  applied: string[];
}

export function parsePrefer(header: string | null): Preferences {
  const result: Preferences = { returning: 'minimal', missingDefault: false, applied: [] };
  for (const part of (header ?? '').split(',')) {
    const [rawKey, rawValue = ''] = part.split('=');
    const key = rawKey?.trim().toLowerCase();
    const value = rawValue.trim().toLowerCase();
    if (key === 'count' && (value === 'exact' || value === 'planned' || value === 'estimated')) {
      result.count = value;
      result.applied.push(`count=${value}`);
    } else if (key === 'return' && (value === 'minimal' || value === 'representation' || value === 'headers-only')) {
      result.returning = value;
      result.applied.push(`return=${value}`);
    } else if (key === 'resolution' && (value === 'merge-duplicates' || value === 'ignore-duplicates')) {
      result.resolution = value;
      result.applied.push(`resolution=${value}`);
    } else if (key === 'missing' && value === 'default') {
      result.missingDefault = true;
      result.applied.push('missing=default');
    }
  }
  return result;
}
