import { createContext, useContext } from 'react';

/** The per-request CSP nonce, provided by entry.server; empty in the browser (it is hidden there). */
const NonceContext = createContext('');

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
