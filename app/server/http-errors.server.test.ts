import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  UNAVAILABLE_MESSAGE,
  accessDenied,
  notFound,
  unavailable,
  unavailableMessage,
  unwrap,
} from './http-errors.server';

/** What a loader throws, as React Router's server handler reads it: the payload and the status. */
function thrownBy(run: () => unknown): { data: unknown; status: number | undefined } {
  try {
    run();
  } catch (thrown) {
    const { data, init } = thrown as { data: unknown; init: ResponseInit | null };
    return { data, status: init?.status };
  }
  throw new Error('nothing was thrown');
}

describe('http errors', () => {
  afterEach(() => vi.restoreAllMocks());

  it('notFound throws 404 with the generic or the given title and message', () => {
    expect(thrownBy(() => notFound())).toEqual({ data: { type: 'not-found' }, status: 404 });
    expect(thrownBy(() => notFound({ title: 'Agent not found', message: 'Gone.' }))).toEqual({
      data: { type: 'not-found', title: 'Agent not found', message: 'Gone.' },
      status: 404,
    });
  });

  it('accessDenied throws 403 naming the role and what was required', () => {
    const { data, status } = thrownBy(() => accessDenied('buyer', { permission: 'manage_users' }));
    expect(status).toBe(403);
    expect(data).toMatchObject({ type: 'access-denied', role: 'buyer', requirement: { permission: 'manage_users' } });
    expect((data as { message: string }).message).toMatch(/\S/);
  });

  it('unavailable throws 503 with a message for people, and is recognised as such', () => {
    const thrown = (() => {
      try {
        unavailable();
      } catch (error) {
        return error;
      }
    })();
    expect(thrownBy(() => unavailable())).toEqual({
      data: { type: 'backend-unavailable', message: UNAVAILABLE_MESSAGE },
      status: 503,
    });
    expect(unavailableMessage(thrown)).toBe(UNAVAILABLE_MESSAGE);
    expect(unavailableMessage(new Error('boom'))).toBeNull();
    expect(unavailableMessage(null)).toBeNull();
    try {
      notFound();
    } catch (error) {
      expect(unavailableMessage(error)).toBeNull();
    }
  });

  describe('unwrap', () => {
    const failure = { data: null, error: { message: 'relation "agents" does not exist', code: '42P01' } };

    it('returns the data of a successful result, null included', () => {
      expect(unwrap({ data: [1, 2], error: null }, 'numbers')).toEqual([1, 2]);
      expect(unwrap({ data: null, error: null }, 'maybe a row')).toBeNull();
    });

    it('logs a failed call and throws 503 with the page message, never the database text', () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      expect(thrownBy(() => unwrap(failure, { what: 'agent', unavailable: 'We could not load this agent.' }))).toEqual({
        data: { type: 'backend-unavailable', message: 'We could not load this agent.' },
        status: 503,
      });
      expect(thrownBy(() => unwrap(failure, 'catalogue')).data).toEqual({
        type: 'backend-unavailable',
        message: UNAVAILABLE_MESSAGE,
      });
      expect(log).toHaveBeenCalledWith('Backend call failed (agent):', '42P01', 'relation "agents" does not exist');
    });

    it('with notFound, a missing row is a 404 with those details', () => {
      const missing = { title: 'Agent not found' };
      expect(thrownBy(() => unwrap({ data: null, error: null }, { what: 'agent', notFound: missing }))).toEqual({
        data: { type: 'not-found', title: 'Agent not found' },
        status: 404,
      });
      expect(unwrap({ data: { id: 'a' }, error: null }, { what: 'agent', notFound: missing })).toEqual({ id: 'a' });
    });
  });
});
