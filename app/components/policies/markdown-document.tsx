/**
 * HTML made from Markdown on the server (`renderMarkdown`, app/server/markdown.server.ts: HTML in
 * the source is text, links only http(s), mailto or this site's), styled by `.markdown-document`.
 */
export function MarkdownDocument({ html }: { html: string }) {
  // Safe to insert: markdown-it rendered it with HTML off (see above).
  return <div className="markdown-document" dangerouslySetInnerHTML={{ __html: html }} />;
}
