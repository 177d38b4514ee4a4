import { describe, expect, it } from 'vitest';
import { greetingAt, greetingForHour, hourIn } from './greeting';

describe('greetingForHour', () => {
  it.each([
    [0, 'Good morning'],
    [5, 'Good morning'],
    [11, 'Good morning'],
    [12, 'Good afternoon'],
    [17, 'Good afternoon'],
    [18, 'Good evening'],
    [23, 'Good evening'],
  ])('%i h → %s', (hour, greeting) => {
    expect(greetingForHour(hour)).toBe(greeting);
  });
});

describe('greetingAt (time zones)', () => {
  const noonUtc = new Date('2025-03-10T12:00:00Z');

  it('reads the hour on the wall clock of the zone', () => {
    expect(hourIn(noonUtc, 'UTC')).toBe(12);
    expect(hourIn(noonUtc, 'America/New_York')).toBe(8); // EDT since 9 March
    expect(hourIn(noonUtc, 'Asia/Tokyo')).toBe(21);
    expect(hourIn(noonUtc, 'Asia/Kolkata')).toBe(17); // 17:30
    expect(hourIn(new Date('2025-03-10T00:00:00Z'), 'UTC')).toBe(0); // midnight is 0, not 24
  });

  it('greets by local time, not by the server clock', () => {
    expect(greetingAt(noonUtc, 'UTC')).toBe('Good afternoon');
    expect(greetingAt(noonUtc, 'America/New_York')).toBe('Good morning');
    expect(greetingAt(noonUtc, 'Asia/Tokyo')).toBe('Good evening');
    expect(greetingAt(noonUtc, 'Asia/Kolkata')).toBe('Good afternoon');
  });

  it('switches exactly at 12:00 and 18:00 local time', () => {
    expect(greetingAt(new Date('2025-07-01T09:59:59Z'), 'Europe/Paris')).toBe('Good morning'); // 11:59:59
    expect(greetingAt(new Date('2025-07-01T10:00:00Z'), 'Europe/Paris')).toBe('Good afternoon'); // 12:00
    expect(greetingAt(new Date('2025-07-01T15:59:59Z'), 'Europe/Paris')).toBe('Good afternoon'); // 17:59:59
    expect(greetingAt(new Date('2025-07-01T16:00:00Z'), 'Europe/Paris')).toBe('Good evening'); // 18:00
  });
});
