/**
 * Markdown to HTML for documents admins write (the policies; ADR 069), with markdown-it: HTML in
 * the source is written out as text (`html: false`), links may only be http(s), mailto or paths
 * on this site (markdown-it's own check refuses javascript:, vbscript:, file: and data:), and
 * links to other sites open with `rel="nofollow noopener noreferrer"`. The HTML is safe to insert.
 */
import MarkdownIt from 'markdown-it';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const SAFE_LINK = /^(https?:|mailto:|\/(?![/\\])|#)/i;
const defaultValidate = markdown.validateLink.bind(markdown);
markdown.validateLink = (url) => defaultValidate(url) && SAFE_LINK.test(url.trim());

const renderLink = markdown.renderer.rules.link_open;
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const href = String(tokens[index]!.attrGet('href') ?? '');
  if (/^https?:/i.test(href)) tokens[index]!.attrSet('rel', 'nofollow noopener noreferrer');
  return renderLink ? renderLink(tokens, index, options, env, self) : self.renderToken(tokens, index, options);
};

export function renderMarkdown(source: string): string {
  return markdown.render(source);
}
