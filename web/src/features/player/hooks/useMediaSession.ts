import { useEffect, useEffectEvent } from 'react';

interface NowPlaying {
  /** The chapter's label when there is one, else the file's title. */
  title: string;
  /** The file's title (shown as the album when the title is a chapter). */
  fileTitle: string;
  artwork: string | null;
  playing: boolean;
  position: number;
  duration: number;
  rate: number;
}

export interface MediaActions {
  play(): void;
  pause(): void;
  skip(seconds: number): void;
  /** Back and forward by the listener's jump lengths, when the system names no offset. */
  jumpBack(): void;
  jumpForward(): void;
  seekTo(seconds: number): void;
  previousChapter(): void;
  nextChapter(): void;
  stop(): void;
}

/** The lock screen, notification area and hardware media keys (Media Session API). */
export function useMediaSession(active: boolean, now: NowPlaying, actions: MediaActions) {
  const supported = typeof navigator !== 'undefined' && 'mediaSession' in navigator;
  const { title, fileTitle, artwork, playing, position, duration, rate } = now;

  useEffect(() => {
    if (!supported) return;
    const session = navigator.mediaSession;
    if (!active) {
      session.metadata = null;
      session.playbackState = 'none';
      return;
    }
    session.metadata = new MediaMetadata({
      title,
      artist: title === fileTitle ? '' : fileTitle,
      album: fileTitle,
      artwork: artwork ? [{ src: artwork, sizes: '512x512' }] : [],
    });
  }, [supported, active, title, fileTitle, artwork]);

  useEffect(() => {
    if (!supported || !active) return;
    navigator.mediaSession.playbackState = playing ? 'playing' : 'paused';
  }, [supported, active, playing]);

  // Whole seconds: the lock screen needs no more, and the browser is not called four times a second.
  const second = Math.floor(position);
  useEffect(() => {
    if (!supported || !active || !(duration > 0)) return;
    try {
      navigator.mediaSession.setPositionState({ duration, playbackRate: rate, position: Math.min(second, duration) });
    } catch {
      // A position the browser finds inconsistent (mid-load) is skipped; the next second sets it.
    }
  }, [supported, active, duration, rate, second]);

  // The handlers are set once per listening session and call the latest actions: the actions
  // change with every tick of the clock (a skip starts from the current position).
  const latest = useEffectEvent(() => actions);
  useEffect(() => {
    if (!supported || !active) return;
    const session = navigator.mediaSession;
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', () => latest().play()],
      ['pause', () => latest().pause()],
      ['stop', () => latest().stop()],
      ['seekbackward', (d) => (d.seekOffset ? latest().skip(-d.seekOffset) : latest().jumpBack())],
      ['seekforward', (d) => (d.seekOffset ? latest().skip(d.seekOffset) : latest().jumpForward())],
      ['seekto', (d) => d.seekTime !== undefined && latest().seekTo(d.seekTime)],
      ['previoustrack', () => latest().previousChapter()],
      ['nexttrack', () => latest().nextChapter()],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [supported, active]);
}
