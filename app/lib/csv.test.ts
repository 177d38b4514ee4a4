import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from '~/lib/csv';

describe('CSV (RFC 4180) with formula injection guarded', () => {
  it('quotes fields with commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(12.5)).toBe('12.5');
  });

  it('quotes fields with a semicolon or a tab, so a spreadsheet splitting on them keeps one cell', () => {
    expect(csvField('Sec;=1+1;x')).toBe('"Sec;=1+1;x"');
    expect(csvField('a\t=1+1')).toBe('"a\t=1+1"');
  });

  it('prefixes text that a spreadsheet would run as a formula with a single quote', () => {
    expect(csvField('=HYPERLINK("http://evil.example","click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe(`"'\tcmd"`);
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField(-5)).toBe('-5'); // a number stays a number
  });

  it('ends every record with CRLF, the header first', () => {
    expect(toCsv(['A', 'B'], [['1', '=2']])).toBe("A,B\r\n1,'=2\r\n");
  });
});
