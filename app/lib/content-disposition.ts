/**
 * The `Content-Disposition` header of a download (RFC 6266): `filename="…"` with a safe ASCII
 * fallback (no quotes, backslashes, control characters or path separators), plus `filename*`
 * (RFC 8187, UTF-8, percent-encoded) when the name needed changing, so browsers that read it keep
 * the real name.
 */
export function attachmentDisposition(fileName: string): string {
  const name = fileName.trim() || 'download';
  const fallback = name.replace(/[^\x20-\x7e]|["\\/]/g, '_');
  if (fallback === name) return `attachment; filename="${name}"`;
  const encoded = encodeURIComponent(name.replace(/[/\\]/g, '_')).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
