import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './content-disposition';

describe('attachmentDisposition', () => {
  it('quotes a plain ASCII name as it is', () => {
    expect(attachmentDisposition('campaignpilot-1.0.0.json')).toBe('attachment; filename="campaignpilot-1.0.0.json"');
  });

  it('replaces quotes, backslashes and separators, and adds the UTF-8 name', () => {
    expect(attachmentDisposition('a"b\\c/d.json')).toBe(
      `attachment; filename="a_b_c_d.json"; filename*=UTF-8''a%22b_c_d.json`,
    );
  });

  it('keeps a non-ASCII name in filename* and an ASCII fallback', () => {
    expect(attachmentDisposition('résumé (1).json')).toBe(
      `attachment; filename="r_sum_ (1).json"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.json`,
    );
  });

  it('never lets a line break into the header', () => {
    const header = attachmentDisposition('evil\r\nSet-Cookie: x=1.json');
    expect(header).not.toMatch(/[\r\n]/);
    expect(() => new Headers({ 'Content-Disposition': header })).not.toThrow();
  });

  it('names an empty file name', () => {
    expect(attachmentDisposition('  ')).toBe('attachment; filename="download"');
  });
});
