import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.server';

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis and links', () => {
    const html = renderMarkdown('## Fees\n\n- **Ten** percent\n- see [Pricing](/pricing) or https://example.com');
    expect(html).toContain('<h2>Fees</h2>');
    expect(html).toContain('<li><strong>Ten</strong> percent</li>');
    expect(html).toContain('<a href="/pricing">Pricing</a>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow noopener noreferrer">https://example.com</a>');
  });

  it('writes HTML out as text and drops links a browser would run', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[a](javascript:alert(1)) [b](data:text/html,x) [c](//evil.example) [d](vbscript:x)',
    );
    expect(html).not.toMatch(/<script|<img|href="javascript|href="data|href="\/\/|href="vbscript/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
