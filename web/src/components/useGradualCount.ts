import { startTransition, useEffect, useState } from 'react';

/**
 * How many of a list's `total` items to draw: `first` at once, then `step` more per task, each in
 * a transition. A page of cards drawn in one go is one long task (hundreds of milliseconds on a
 * slow phone) in which a tap or a key waits; drawn a few at a time, the first cards appear sooner
 * and input is answered between batches. Starts again from `first` when `restartKey` changes (a
 * new search or sort), not when the list merely grows (the next page).
 */
export function useGradualCount(total: number, restartKey: string, first = 6, step = 6): number {
  // The count belongs to the list it was drawn for: another list's count reads as `first`. No reset
  // is stored when the list changes: a step asked for just before (an update in a transition) would
  // be replayed after it and bring the old list's count back, with no timer left for the new one.
  const [state, setState] = useState({ key: restartKey, count: first });
  const count = state.key === restartKey ? state.count : first;

  useEffect(() => {
    if (count >= total) return;
    // A timeout, not an animation frame: a hidden tab gets no frames but must still draw its list.
    const timer = setTimeout(
      () =>
        startTransition(() =>
          setState((s) => ({ key: restartKey, count: (s.key === restartKey ? s.count : first) + step })),
        ),
      0,
    );
    return () => clearTimeout(timer);
  }, [count, total, first, step, restartKey]);

  return Math.min(count, total);
}
