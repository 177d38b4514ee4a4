import { describe, expect, it } from 'vitest';
import { formatBytes } from './file-size';

describe('formatBytes', () => {
  it('names each size in its unit, one decimal below 100', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1000)).toBe('1 kB');
    expect(formatBytes(48_213)).toBe('48.2 kB');
    expect(formatBytes(7_600_000)).toBe('7.6 MB');
    expect(formatBytes(123_456_789)).toBe('123 MB');
    expect(formatBytes(1_200_000_000)).toBe('1.2 GB');
  });
});
