import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney, monthKey, percentChange } from './dashboard-format';

describe('dashboard formatting', () => {
  it('formats money with two decimals', () => {
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(1234.5)).toBe('$1,234.50');
  });

  it('formats dates on the user calendar', () => {
    expect(formatDate('2025-01-31T23:30:00Z', 'UTC')).toBe('Jan 31, 2025');
    expect(formatDate('2025-01-31T23:30:00Z', 'Asia/Tokyo')).toBe('Feb 1, 2025');
  });

  it('compares calendar months across zones', () => {
    const instant = new Date('2025-01-31T23:30:00Z');
    expect(monthKey(instant, 'UTC')).toBe('2025-01');
    expect(monthKey(instant, 'Asia/Tokyo')).toBe('2025-02');
    expect(monthKey(instant, 'America/Los_Angeles')).toBe('2025-01');
  });

  it('computes percent change with one decimal, none without a base', () => {
    expect(percentChange(100, 125)).toBe(25);
    expect(percentChange(300, 200)).toBe(-33.3);
    expect(percentChange(0, 50)).toBeNull();
  });
});
