import { useMutation } from '@apollo/client/react';
import { useEffect, useRef, type RefObject } from 'react';
import { getToken } from '../../../app/stored-session';
import { SaveProgressDocument } from '../../../gql/graphql';
import { saveProgressOnExit, type ProgressUpdate } from '../progress-api';

/** Seconds between saves while playing. */
export const SAVE_EVERY_MS = 10_000;

interface Listening {
  fileId: string | null;
  loadKey: number;
  position: number;
  duration: number;
  /** Shown finished (played to the end, or marked): no unfinished position is saved over it. */
  finished: boolean;
}

/**
 * Keeps the server's listening position up to date: every ten seconds while playing, on pause, at
 * the end (finished) and as the page is hidden or closed. Nothing is saved for a file that was
 * only opened, so opening a file never overwrites where it was left on another device.
 */
export function useProgressSync(audioRef: RefObject<HTMLAudioElement | null>, listening: Listening) {
  const [save] = useMutation(SaveProgressDocument);
  const latest = useRef(listening);
  useEffect(() => {
    latest.current = listening;
  });

  const { fileId, loadKey } = listening;
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !fileId) return;
    let heard = false;
    const current = (finished: boolean): ProgressUpdate | null => {
      // Signed out, an emptied element (stopped) or a file never played: nothing to save.
      if (!getToken() || !heard || !audio.getAttribute('src') || latest.current.fileId !== fileId) return null;
      if (!finished && latest.current.finished) return null;
      const { position, duration } = latest.current;
      return { fileId, position: finished ? duration : position, finished };
    };
    const send = (finished = false) => {
      const update = current(finished);
      if (!update) return;
      save({ variables: { fileId, input: { position: update.position, finished } } }).catch((error: unknown) =>
        console.warn('Listening position not saved', error),
      );
    };
    const onPlay = () => {
      heard = true;
    };
    // At the end the element pauses first; 'ended' saves that one as finished.
    const onPause = () => {
      if (!audio.ended) send();
    };
    // Finished is the last word on this play-through: a later save (leaving, hiding the page)
    // would otherwise overwrite it with an unfinished position. Playing again starts a new one.
    const onEnded = () => {
      send(true);
      heard = false;
    };
    const onHide = () => {
      if (document.visibilityState !== 'hidden') return;
      const update = current(false);
      if (update) saveProgressOnExit(update);
    };
    const onPageHide = () => {
      const update = current(false);
      if (update) saveProgressOnExit(update);
    };
    const timer = setInterval(() => {
      if (!audio.paused) send();
    }, SAVE_EVERY_MS);
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('ended', onEnded);
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      // Another file is opened: keep where this one was left.
      send();
      clearInterval(timer);
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('ended', onEnded);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
    };
  }, [audioRef, fileId, loadKey, save]);
}
