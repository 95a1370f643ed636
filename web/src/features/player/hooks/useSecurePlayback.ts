import { useCallback, useEffect, useRef, useState } from 'react';
import { RestError } from '../../../app/rest';
import { checkStream, createSignedUrl, createStreamSession, streamUrl as streamUrlOf } from '../drm-api';

// MediaError codes and readyState values, spelled out: they are fixed by the HTML standard.
const MEDIA_ERR_NETWORK = 2;
const MEDIA_ERR_SRC_NOT_SUPPORTED = 4;
const HAVE_METADATA = 1;

const SERVER_ERROR_RETRIES = 2;
const RETRY_DELAY_MS = 2000;
/** How far before the end a seek lands at most: the server has no bytes to sign from the very end. */
export const END_MARGIN_SECONDS = 0.5;

export type PlaybackStatus = 'idle' | 'initializing' | 'ready' | 'error';

/** The file to play: `loadKey` changes each time it is (re)opened; `startAt` is where to begin. */
export interface PlaybackSource {
  id: string;
  duration: number;
  startAt: number;
  loadKey: number;
}

/** Which bytes the audio element is reading: the whole stream, or a signed window from `offset`. */
interface Source {
  kind: 'stream' | 'signed';
  offset: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function initErrorMessage(error: unknown): string {
  if (error instanceof RestError) {
    if (error.status === 401) return 'Authentication required. Please log in again.';
    if (error.status === 403) return 'Access denied. You do not have permission to access this file.';
    if (error.status === 404) return 'Audio file not found.';
    if (error.status >= 500) return 'Server error. Please try again later.';
  }
  if (error instanceof Error && error.message) return `Failed to initialize secure playback: ${error.message}`;
  return 'Failed to initialize secure playback';
}

/** Opens a stream session; server errors (5xx) are retried twice, 2 s apart. */
async function openSession(fileId: string, isCancelled: () => boolean) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await createStreamSession(fileId);
    } catch (error) {
      const retriable = error instanceof RestError && error.status >= 500 && attempt < SERVER_ERROR_RETRIES;
      if (!retriable || isCancelled()) throw error;
      await sleep(RETRY_DELAY_MS);
    }
  }
}

/** Empties the element: nothing more is read or heard. */
function unload(audio: HTMLAudioElement | null): void {
  if (!audio?.getAttribute('src')) return;
  audio.pause();
  audio.removeAttribute('src');
  audio.load();
}

/**
 * The secure player's state machine: stream session, signed-URL seeking, expiry recovery. One
 * instance lives in the app shell (PlayerProvider), so playback outlives the page it started on.
 */
export function useSecurePlayback(file: PlaybackSource | null) {
  const fileId = file?.id ?? null;
  const loadKey = file?.loadKey ?? 0;
  const startAt = file?.startAt ?? 0;
  const fileDuration = file?.duration ?? 0;

  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [status, setStatus] = useState<PlaybackStatus>(fileId ? 'initializing' : 'idle');
  const [error, setError] = useState<string | null>(null);
  const [sessionToken, setSessionToken] = useState<string | null>(null);
  const [duration, setDuration] = useState(fileDuration);
  const [position, setPosition] = useState(startAt);
  const [playing, setPlaying] = useState(false);
  const [initRound, setInitRound] = useState(0);
  const source = useRef<Source>({ kind: 'stream', offset: 0 });
  // Where to pick up once the session is open: the saved position of a file just opened, or where
  // it was when the old session expired mid-play.
  const resume = useRef<{ position: number; play: boolean } | null>(null);
  const loadedKey = useRef<number | null>(null);
  const stopped = useRef(false);
  // Seeks in flight: only the latest one may set the source (quick skips overtake each other).
  const lastSeek = useRef(0);
  // While a seek's signed URL is on its way: whether to play from the new place once it is there.
  // Play and pause pressed meanwhile change this instead of the old source, so the old place is
  // neither heard nor reported (a pause there would save the wrong position).
  const seeking = useRef<{ play: boolean } | null>(null);

  // A new file or a re-opened session starts over from 'initializing', set during render so the
  // old status is never shown with the new round. A new file also starts its clock afresh.
  const [round, setRound] = useState({ loadKey, initRound });
  if (round.loadKey !== loadKey || round.initRound !== initRound) {
    setRound({ loadKey, initRound });
    setStatus(fileId ? 'initializing' : 'idle');
    setError(null);
    if (round.loadKey !== loadKey) {
      setSessionToken(null);
      setPlaying(false);
      setDuration(fileDuration);
      setPosition(startAt);
    }
  }

  const streamUrl = sessionToken ? streamUrlOf(sessionToken) : null;

  const play = useCallback(async () => {
    const audio = audioRef.current;
    if (!audio) return setError('Audio player not available');
    if (seeking.current) {
      seeking.current.play = true;
      return;
    }
    try {
      await audio.play();
    } catch (e) {
      // A play() cut short by a new source is not a failure the user needs to see.
      if (e instanceof DOMException && e.name === 'AbortError') return;
      setError('Playback error occurred');
    }
  }, []);

  /** Reads the regular stream from `at` seconds (the fallback when no signed URL is available). */
  const seekInStream = useCallback(
    (at: number, thenPlay: boolean) => {
      const audio = audioRef.current;
      if (!audio || !streamUrl) return;
      const jump = () => {
        audio.currentTime = at;
        if (thenPlay) void play();
      };
      if (source.current.kind === 'stream' && audio.readyState >= HAVE_METADATA) return jump();
      source.current = { kind: 'stream', offset: 0 };
      audio.src = streamUrl;
      audio.addEventListener('loadedmetadata', jump, { once: true });
    },
    [play, streamUrl],
  );

  useEffect(() => {
    const audio = audioRef.current;
    // A seek still on its way belongs to the file that is going: it must not set the source.
    const dropSeek = () => {
      lastSeek.current++;
      seeking.current = null;
    };
    if (!fileId) {
      // Closed (signed out): nothing more is read or heard.
      loadedKey.current = null;
      dropSeek();
      return unload(audio);
    }
    if (loadedKey.current !== loadKey) {
      // Another file: the last one stops before this one's session opens.
      loadedKey.current = loadKey;
      dropSeek();
      unload(audio);
      resume.current = startAt > 0 ? { position: startAt, play: false } : null;
    }
    let cancelled = false;
    stopped.current = false;
    openSession(fileId, () => cancelled)
      .then((grant) => {
        if (cancelled) return;
        if (!audio) throw new Error('Audio player not available');
        setSessionToken(grant.sessionToken);
        if (grant.duration > 0) setDuration(grant.duration);
        source.current = { kind: 'stream', offset: 0 };
        audio.src = streamUrlOf(grant.sessionToken);
        setStatus('ready');
        const pending = resume.current;
        resume.current = null;
        if (pending && pending.position > 0) {
          audio.addEventListener('loadedmetadata', () => (audio.currentTime = pending.position), { once: true });
        }
        if (pending?.play) void play();
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        setStatus('error');
        setError(e instanceof Error && e.message === 'Audio player not available' ? e.message : initErrorMessage(e));
      });
    return () => {
      cancelled = true;
    };
  }, [fileId, loadKey, startAt, initRound, play]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    // While a skip waits for its signed URL, the clock already shows where it goes: the element,
    // still on the source an earlier skip loaded, must not move it back there.
    const onTime = () => {
      if (!seeking.current) setPosition(source.current.offset + audio.currentTime);
    };
    // Whether it was playing when an error came: the element reports itself paused by then.
    let wasPlaying = !audio.paused;
    const onPlay = () => {
      wasPlaying = true;
      setPlaying(true);
    };
    const onPause = () => {
      wasPlaying = false;
      setPlaying(false);
    };
    const onEnded = () => {
      setPlaying(false);
      setPosition(0);
      if (source.current.kind === 'signed') seekInStream(0, false);
      else audio.currentTime = 0;
    };
    const onError = async () => {
      if (stopped.current || !audio.getAttribute('src')) return;
      const mediaError = audio.error;
      const resumePlaying = wasPlaying;
      if (source.current.kind === 'signed') {
        // The window could not be read: fall back to seeking in the regular stream.
        return seekInStream(source.current.offset, true);
      }
      // Code 4 when the stream was refused from the start; code 2 when it ended mid-file (a session
      // expired while playing or paused: the element's next range request is refused).
      const code = mediaError?.code;
      if ((code === MEDIA_ERR_SRC_NOT_SUPPORTED || code === MEDIA_ERR_NETWORK) && sessionToken) {
        if ((await checkStream(sessionToken)) === 403) {
          // The stream session ended (expiry, new device session): open a new one and carry on.
          resume.current = { position: source.current.offset + audio.currentTime, play: resumePlaying };
          setSessionToken(null);
          setInitRound((n) => n + 1);
          return;
        }
      }
      setError(`Audio loading failed: ${mediaError?.message || 'Unknown error'}`);
    };
    const handleError = () => void onError();
    audio.addEventListener('timeupdate', onTime);
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('error', handleError);
    return () => {
      audio.removeEventListener('timeupdate', onTime);
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('error', handleError);
    };
  }, [seekInStream, sessionToken]);

  /**
   * Jumps to `target` seconds through a signed URL for that start time. The seek bar resumes
   * playing from there (the spec's rule); skips keep a paused player paused (`resume: false`).
   */
  const seek = useCallback(
    async (target: number, { resume: thenPlay = true }: { resume?: boolean } = {}) => {
      const audio = audioRef.current;
      if (!audio) return setError('Audio player not available');
      if (!streamUrl) return;
      const at = Math.min(Math.max(0, target), Math.max(0, duration - END_MARGIN_SECONDS));
      const seekId = ++lastSeek.current;
      // Playing goes on from the new place; so does a play pressed during an earlier skip.
      seeking.current = { play: thenPlay || (seeking.current?.play ?? !audio.paused) };
      setPosition(at);
      setError(null);
      let signedUrl: string | null = null;
      try {
        ({ signedUrl } = await createSignedUrl(fileId ?? '', at));
      } catch (e) {
        console.warn('Signed URL unavailable; seeking in the regular stream', e);
      }
      if (seekId !== lastSeek.current) return;
      const playNow = seeking.current?.play ?? false;
      seeking.current = null;
      if (!signedUrl) return seekInStream(at, playNow);
      source.current = { kind: 'signed', offset: at };
      audio.src = signedUrl;
      if (playNow) await play();
    },
    [duration, fileId, play, seekInStream, streamUrl],
  );

  const pause = useCallback(() => {
    if (seeking.current) seeking.current.play = false;
    audioRef.current?.pause();
  }, []);

  const togglePlay = useCallback(() => {
    const audio = audioRef.current;
    if (!audio) return setError('Audio player not available');
    const playingOrAboutTo = seeking.current ? seeking.current.play : !audio.paused;
    if (playingOrAboutTo) pause();
    else void play();
  }, [play, pause]);

  /** Ends playback for good (access revoked, signed out): no bytes are read after this. */
  const stop = useCallback((message: string) => {
    stopped.current = true;
    seeking.current = null;
    unload(audioRef.current);
    // The listeners go with the session token, so the element's own pause event is not heard.
    setPlaying(false);
    setSessionToken(null);
    setStatus('error');
    setError(message);
  }, []);

  return { audioRef, status, error, duration, position, playing, seek, play, togglePlay, pause, stop };
}

export type SecurePlayback = ReturnType<typeof useSecurePlayback>;
