import { useCallback, useEffect, useState } from 'react';

/** A message that clears itself after `ms` (success banners clear after 5 s or 3 s); null: it stays. */
export function useTimedMessage(ms: number | null): [string | null, (message: string | null) => void] {
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    if (!message || ms === null) return;
    const timer = setTimeout(() => setMessage(null), ms);
    return () => clearTimeout(timer);
  }, [message, ms]);
  const set = useCallback((next: string | null) => setMessage(next), []);
  return [message, set];
}
