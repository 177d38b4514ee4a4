import { describe, expect, it } from 'vitest';
import { TwoFactorSettingsSchema, TwoFactorSignInSchema } from '~/schemas/two-factor';
import { twoFactorHref } from '~/lib/two-factor';
import { WRONG_CODES_ALLOWED, needsSecondFactor, qrCodeOf, setupFromUri, wrongCodes } from '~/server/two-factor.server';
import { memoryWindows } from '../../packages/supabase-embedded/src/fixed-window';

const token = (claims: object) => `x.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.y`;
const verified = { factors: [{ id: 'f', status: 'verified', factor_type: 'totp' }] } as never;
const unverified = { factors: [{ id: 'f', status: 'unverified', factor_type: 'totp' }] } as never;

describe('needsSecondFactor', () => {
  it('asks for a code only from an aal1 session of a user with a verified factor', () => {
    expect(needsSecondFactor(token({ aal: 'aal1' }), verified)).toBe(true);
    expect(needsSecondFactor(token({}), verified)).toBe(true);
    expect(needsSecondFactor('not-a-jwt', verified)).toBe(true);
    expect(needsSecondFactor(token({ aal: 'aal2' }), verified)).toBe(false);
    expect(needsSecondFactor(token({ aal: 'aal1' }), unverified)).toBe(false);
    expect(needsSecondFactor(token({ aal: 'aal1' }), { factors: undefined } as never)).toBe(false);
  });
});

describe('wrong-code limit', () => {
  it('refuses a user after five wrong codes until the five-minute window ends, per user', async () => {
    let now = 1_000_000;
    const windows = memoryWindows({ now: () => now, sleep: async () => {} });
    for (let attempt = 0; attempt < WRONG_CODES_ALLOWED; attempt += 1) {
      expect(await wrongCodes.retryAfterSeconds(windows, 'ada')).toBe(0);
      await wrongCodes.fail(windows, 'ada');
    }
    expect(await wrongCodes.retryAfterSeconds(windows, 'ada')).toBe(300);
    expect(await wrongCodes.retryAfterSeconds(windows, 'bob')).toBe(0);
    now += 299_000;
    expect(await wrongCodes.retryAfterSeconds(windows, 'ada')).toBe(1);
    now += 1_000;
    expect(await wrongCodes.retryAfterSeconds(windows, 'ada')).toBe(0);
  });
});

describe('setup QR code', () => {
  const uri = 'otpauth://totp/AgentMarket:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=AgentMarket';

  it('reads the secret from the otpauth URI and draws its modules', () => {
    const setup = setupFromUri('00000000-0000-4000-8000-000000000000', uri);
    expect(setup?.secret).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(setup?.qr.size).toBeGreaterThanOrEqual(21);
    expect(setup?.qr.path).toMatch(/^(M\d+ \d+h\d+v1h-\d+z)+$/);
    expect(qrCodeOf(uri)).toEqual(setup?.qr);
  });

  it('refuses anything but a TOTP URI with a base32 secret', () => {
    expect(setupFromUri('id', 'https://evil.example/?secret=JBSWY3DPEHPK3PXP')).toBeNull();
    expect(setupFromUri('id', 'otpauth://totp/x?secret=not-base32!')).toBeNull();
    expect(setupFromUri('id', 'otpauth://totp/x')).toBeNull();
    expect(setupFromUri('id', '::')).toBeNull();
  });
});

describe('code forms', () => {
  it('takes six digits, spaces dropped, and names the problem otherwise', () => {
    expect(TwoFactorSignInSchema.parse({ code: '123 456' }).code).toBe('123456');
    expect(TwoFactorSignInSchema.safeParse({ code: '12345' }).error?.issues[0]?.message).toBe(
      'Enter the 6-digit code from your authenticator app.',
    );
    expect(TwoFactorSettingsSchema.safeParse({ intent: 'disable', code: 'abcdef' }).success).toBe(false);
    expect(
      TwoFactorSettingsSchema.safeParse({
        intent: 'confirm',
        factorId: 'x',
        enrollmentUri: 'otpauth://totp/a',
        code: '123456',
      }).success,
    ).toBe(false);
  });

  it('sends to the code page with a same-origin return path only', () => {
    expect(twoFactorHref('/dashboard/purchases?page=2')).toBe(
      '/auth/two-factor?redirectTo=%2Fdashboard%2Fpurchases%3Fpage%3D2',
    );
    expect(twoFactorHref('//evil.example')).toBe('/auth/two-factor?redirectTo=%2Fdashboard');
    expect(twoFactorHref(undefined)).toBe('/auth/two-factor?redirectTo=%2Fdashboard');
  });
});
