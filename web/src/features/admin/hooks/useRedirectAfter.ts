import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';

/** Schedules a navigation (the spec's redirects after success); cancelled when the page goes. */
export function useRedirectAfter(): (to: string, ms: number) => void {
  const navigate = useNavigate();
  const [target, setTarget] = useState<{ to: string; ms: number } | null>(null);
  useEffect(() => {
    if (!target) return;
    const timer = setTimeout(() => void navigate(target.to), target.ms);
    return () => clearTimeout(timer);
  }, [target, navigate]);
  return (to, ms) => setTarget({ to, ms });
}
