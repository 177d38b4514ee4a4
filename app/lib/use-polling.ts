/**
 * Reloads the page's data every `intervalMs` while the page is in view (ADR 071): how new
 * messages appear without a reload when JavaScript is on. Polling through the page's own loaders,
 * not a held connection: the server keeps no socket per open tab, every app process answers
 * alike (PostgreSQL server mode), and what shows is what a reload would show. Paused while the tab
 * is hidden or a navigation or form is under way; once more as soon as the tab comes back.
 */
import { useEffect, useRef } from 'react';
import { useNavigation, useRevalidator } from 'react-router';

export function usePolling(intervalMs: number, enabled = true) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // The latest state for the timer, without restarting it on every render.
  const latest = useRef({ revalidator, busy: navigation.state !== 'idle' });
  useEffect(() => {
    latest.current = { revalidator, busy: navigation.state !== 'idle' };
  });

  useEffect(() => {
    if (!enabled) return;
    const poll = () => {
      const { revalidator: current, busy } = latest.current;
      if (document.visibilityState === 'visible' && !busy && current.state === 'idle') void current.revalidate();
    };
    const timer = window.setInterval(poll, intervalMs);
    document.addEventListener('visibilitychange', poll);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
    };
  }, [intervalMs, enabled]);
}
