import { CLIENT_HINT_SCRIPT } from '~/lib/client-hints';

/** Renders the time-zone client-hint script in <head>; it carries the CSP nonce. */
export function ClientHintCheck({ nonce }: { nonce: string }) {
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: CLIENT_HINT_SCRIPT }} />;
}
