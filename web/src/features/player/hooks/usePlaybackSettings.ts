import { useCallback, useEffect, useState, type RefObject } from 'react';

export const MIN_RATE = 0.5;
export const MAX_RATE = 3;
export const RATE_STEP = 0.25;
export const PLAYBACK_RATES = Array.from(
  { length: (MAX_RATE - MIN_RATE) / RATE_STEP + 1 },
  (_, i) => MIN_RATE + i * RATE_STEP,
);

/** The jump lengths a listener may choose for back and forward, in seconds. */
export const JUMP_SECONDS = [5, 10, 15, 30, 60] as const;

interface Settings {
  rate: number;
  volume: number;
  muted: boolean;
  /** Seconds the back button, the left arrow and the media session's "seek backward" go back. */
  jumpBack: number;
  /** Seconds forward, likewise. */
  jumpForward: number;
}

const DEFAULTS: Settings = { rate: 1, volume: 1, muted: false, jumpBack: 15, jumpForward: 30 };

/** A stored jump length, if it is one of the choices; else the default. */
function jumpOr(value: unknown, fallback: number): number {
  return JUMP_SECONDS.find((seconds) => seconds === Number(value)) ?? fallback;
}

const storageKey = (userId: string) => `playerSettings:${userId}`;

function clampRate(rate: number): number {
  const stepped = Math.round(rate / RATE_STEP) * RATE_STEP;
  return Math.min(MAX_RATE, Math.max(MIN_RATE, stepped));
}

function read(userId: string | null): Settings {
  if (!userId) return DEFAULTS;
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(userId)) ?? 'null') as Partial<Settings> | null;
    return {
      rate: clampRate(Number(stored?.rate ?? DEFAULTS.rate)),
      volume: Math.min(1, Math.max(0, Number(stored?.volume ?? DEFAULTS.volume))),
      muted: stored?.muted === true,
      jumpBack: jumpOr(stored?.jumpBack, DEFAULTS.jumpBack),
      jumpForward: jumpOr(stored?.jumpForward, DEFAULTS.jumpForward),
    };
  } catch {
    return DEFAULTS;
  }
}

/**
 * Speed, volume, mute and jump lengths, remembered per user in this browser and applied to the element. The
 * default rate goes along so a new source (a signed seek window) keeps the chosen speed.
 */
export function usePlaybackSettings(userId: string | null, audioRef: RefObject<HTMLAudioElement | null>) {
  const [stored, setStored] = useState(() => ({ userId, settings: read(userId) }));
  // Another user signed in: their own settings, read during render (no flash of the last user's).
  if (stored.userId !== userId) setStored({ userId, settings: read(userId) });
  const settings = stored.userId === userId ? stored.settings : read(userId);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.defaultPlaybackRate = settings.rate;
    audio.playbackRate = settings.rate;
    audio.volume = settings.volume;
    audio.muted = settings.muted;
    // A new source resets the rate to the default on some browsers: set it again once loaded.
    const keepRate = () => {
      if (audio.playbackRate !== settings.rate) audio.playbackRate = settings.rate;
    };
    audio.addEventListener('loadedmetadata', keepRate);
    return () => audio.removeEventListener('loadedmetadata', keepRate);
  }, [audioRef, settings]);

  const update = useCallback(
    (change: Partial<Settings>) =>
      setStored((current) => {
        const next = { ...current.settings, ...change };
        if (current.userId) {
          try {
            localStorage.setItem(storageKey(current.userId), JSON.stringify(next));
          } catch {
            // Blocked storage only costs remembering the choice.
          }
        }
        return { ...current, settings: next };
      }),
    [],
  );

  const setRate = useCallback((rate: number) => update({ rate: clampRate(rate) }), [update]);
  const stepRate = useCallback((steps: number) => setRate(settings.rate + steps * RATE_STEP), [setRate, settings.rate]);
  const setVolume = useCallback((volume: number) => update({ volume, muted: volume === 0 }), [update]);
  const toggleMute = useCallback(() => update({ muted: !settings.muted }), [update, settings.muted]);
  const setJumps = useCallback(
    (jumps: { back?: number; forward?: number }) =>
      update({
        ...(jumps.back !== undefined && { jumpBack: jumpOr(jumps.back, DEFAULTS.jumpBack) }),
        ...(jumps.forward !== undefined && { jumpForward: jumpOr(jumps.forward, DEFAULTS.jumpForward) }),
      }),
    [update],
  );

  return { ...settings, setRate, stepRate, setVolume, toggleMute, setJumps };
}
