import { describe, expect, it } from 'vitest';
import { parseFields } from '~/lib/forms';
import { BecomeSellerSchema, SELLER_MESSAGES, responseTimeLabel } from './seller';

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return parseFields(data, BecomeSellerSchema);
}

const VALID = {
  displayName: '  Ada Agents ',
  pitch: 'Line one\r\nLine two ',
  responseTimeHours: '8',
  acceptTerms: 'on',
};

describe('BecomeSellerSchema', () => {
  it('trims the texts, reads the hours and requires the terms', () => {
    const result = form(VALID);
    expect(result.status).toBe('success');
    expect(result.status === 'success' && result.value).toEqual({
      displayName: 'Ada Agents',
      pitch: 'Line one\nLine two',
      responseTimeHours: 8,
      acceptTerms: 'on',
    });
  });

  it('stores empty texts as null', () => {
    const result = form({ ...VALID, displayName: '   ', pitch: '' });
    expect(result.status === 'success' && result.value).toMatchObject({ displayName: null, pitch: null });
  });

  it('refuses unchecked terms, another response time and too long texts, each beside its field', () => {
    const result = form({ displayName: 'a'.repeat(61), pitch: 'b'.repeat(501), responseTimeHours: '3' });
    expect(result.status).toBe('error');
    expect(result.status === 'error' && result.error).toEqual({
      displayName: [SELLER_MESSAGES.displayNameTooLong],
      pitch: [SELLER_MESSAGES.pitchTooLong],
      responseTimeHours: [SELLER_MESSAGES.responseTime],
      acceptTerms: [SELLER_MESSAGES.terms],
    });
  });

  it('counts a CRLF line break as one character', () => {
    expect(form({ ...VALID, pitch: 'a\r\n'.repeat(250) }).status).toBe('success');
  });
});

describe('responseTimeLabel', () => {
  it('names hours and days', () => {
    expect(responseTimeLabel(1)).toBe('Within 1 hour');
    expect(responseTimeLabel(12)).toBe('Within 12 hours');
    expect(responseTimeLabel(24)).toBe('Within 24 hours (1 day)');
    expect(responseTimeLabel(72)).toBe('Within 72 hours (3 days)');
  });
});
