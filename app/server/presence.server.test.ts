import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPresenceThrottle } from './presence.server';

describe('presence throttle', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('touches each user at most once per interval', async () => {
    vi.useFakeTimers();
    const throttle = createPresenceThrottle(60_000);
    const touched: string[] = [];
    const touch = (user: string) => () => {
      touched.push(user);
      return Promise.resolve();
    };
    throttle('ada', touch('ada'));
    throttle('ada', touch('ada'));
    throttle('bob', touch('bob'));
    await vi.advanceTimersByTimeAsync(59_000);
    throttle('ada', touch('ada'));
    expect(touched).toEqual(['ada', 'bob']);
    await vi.advanceTimersByTimeAsync(2_000);
    throttle('ada', touch('ada'));
    expect(touched).toEqual(['ada', 'bob', 'ada']);
  });

  it('logs a failed touch, never throws, and does not retry at once', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const throttle = createPresenceThrottle(60_000);
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('backend down'));
    };
    expect(() => throttle('ada', failing)).not.toThrow();
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('Presence update failed:', 'backend down'));
    throttle('ada', failing);
    expect(calls).toBe(1);
  });

  it('remembers a bounded number of users', () => {
    const throttle = createPresenceThrottle(60_000, 2);
    const touched: string[] = [];
    for (const user of ['a', 'b', 'c', 'a']) {
      throttle(user, () => {
        touched.push(user);
        return Promise.resolve();
      });
    }
    expect(touched).toEqual(['a', 'b', 'c', 'a']);
  });
});
