import { createContext, useContext, useState } from 'react';

/**
 * The site's stylesheet, written into each document's `<head>` in production (ADR 029): the first
 * paint then waits for no second request. entry.server provides the built file's text; without it
 * (the development server) the page links the file as usual.
 */
const InlineStylesheetContext = createContext<string | null>(null);

export const InlineStylesheetProvider = InlineStylesheetContext.Provider;

const ID = 'app-stylesheet';

export function Stylesheet({ href, nonce }: { href: string; nonce: string }) {
  const serverText = useContext(InlineStylesheetContext);
  // In the browser the text is already in the document: React keeps it (the same text, so
  // hydration matches), and the bundles never carry a copy of it.
  const [browserText] = useState(() =>
    typeof document === 'undefined' ? null : (document.getElementById(ID)?.textContent ?? null),
  );
  const text = serverText ?? browserText;
  if (text === null) return <link rel="stylesheet" href={href} precedence="default" />;
  return <style id={ID} nonce={nonce} dangerouslySetInnerHTML={{ __html: text }} />;
}
