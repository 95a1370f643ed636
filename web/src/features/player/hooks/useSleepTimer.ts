import { useCallback, useEffect, useState } from 'react';

/** Minutes offered by the sleep timer, or the end of the current chapter. */
export const SLEEP_MINUTES = [15, 30, 45, 60] as const;

export type SleepTimer = { kind: 'off' } | { kind: 'at'; endsAt: number } | { kind: 'chapterEnd'; at: number };

/**
 * Pauses playback when the chosen time is up, or when the position reaches the end of the chapter
 * that was playing when the timer was set. `now` ticks each second while a timed one runs.
 */
export function useSleepTimer(position: number, playing: boolean, pause: () => void) {
  const [timer, setTimer] = useState<SleepTimer>({ kind: 'off' });
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (timer.kind !== 'at') return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const stop = setTimeout(() => {
      pause();
      setTimer({ kind: 'off' });
    }, timer.endsAt - Date.now());
    return () => {
      clearInterval(tick);
      clearTimeout(stop);
    };
  }, [timer, pause]);

  const chapterDone = timer.kind === 'chapterEnd' && playing && position >= timer.at;
  useEffect(() => {
    if (!chapterDone) return;
    pause();
  }, [chapterDone, pause]);
  // Paused at (or past) the chapter's end: the timer has done its job.
  if (timer.kind === 'chapterEnd' && !playing && position >= timer.at) {
    setTimer({ kind: 'off' });
  }

  const sleepAfter = useCallback((minutes: number) => {
    setNow(Date.now());
    setTimer({ kind: 'at', endsAt: Date.now() + minutes * 60_000 });
  }, []);
  const sleepAtChapterEnd = useCallback((at: number) => setTimer({ kind: 'chapterEnd', at }), []);
  const cancel = useCallback(() => setTimer({ kind: 'off' }), []);

  const remaining = timer.kind === 'at' ? Math.max(0, (timer.endsAt - now) / 1000) : null;
  return { timer, remaining, sleepAfter, sleepAtChapterEnd, cancel };
}
