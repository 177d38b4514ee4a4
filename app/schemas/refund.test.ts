import { describe, expect, it } from 'vitest';
import { parseFields } from '~/lib/forms';
import { parseRefundParam, REFUND_MESSAGES, RefundSchema } from './refund';

const ID = 'b0000000-0000-4000-8000-000000000001';

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return parseFields(data, RefundSchema);
}

function errors(fields: Record<string, string>) {
  const submission = form(fields);
  return submission.status === 'success' ? {} : (submission.error ?? {});
}

describe('RefundSchema', () => {
  it('accepts a purchase id and a trimmed reason', () => {
    const submission = form({ purchaseId: ID, reason: '  Not as described  ' });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value).toEqual({ purchaseId: ID, reason: 'Not as described' });
  });

  it('requires a reason of 3 to 500 characters', () => {
    expect(errors({ purchaseId: ID, reason: ' a ' }).reason).toEqual([REFUND_MESSAGES.reasonShort]);
    expect(errors({ purchaseId: ID }).reason).toEqual([REFUND_MESSAGES.reasonShort]);
    expect(errors({ purchaseId: ID, reason: 'x'.repeat(501) }).reason).toEqual([REFUND_MESSAGES.reasonLong]);
  });

  it('requires a purchase id', () => {
    expect(errors({ purchaseId: 'nope', reason: 'Duplicate' }).purchaseId).toEqual([REFUND_MESSAGES.purchase]);
  });
});

describe('parseRefundParam', () => {
  it('reads an id and ignores anything else', () => {
    expect(parseRefundParam(ID.toUpperCase())).toBe(ID);
    expect(parseRefundParam('1')).toBeNull();
    expect(parseRefundParam(null)).toBeNull();
  });
});
