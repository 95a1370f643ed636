import { useEffect, useState } from 'react';

/** setTimeout's longest delay; a later instant is reached in more than one step. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * The current time, refreshed just after each of `instants` (ISO strings; empty ones ignored)
 * passes, so a status worked out from it changes on screen when its moment comes, without a
 * timer running in between.
 */
export function useClockPast(instants: readonly (string | null | undefined)[]): number {
  const [now, setNow] = useState(() => Date.now());
  const next = Math.min(...instants.map((at) => (at ? new Date(at).getTime() : Infinity)).filter((at) => at > now));
  useEffect(() => {
    if (!Number.isFinite(next)) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(Math.max(next - Date.now(), 0) + 50, MAX_DELAY_MS));
    return () => clearTimeout(timer);
  }, [next, now]);
  return now;
}
