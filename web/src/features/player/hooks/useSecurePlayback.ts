import { useCallback, useEffect, useRef, useState } from 'react';
import { REST_BASE, RestError, restFetch } from '../../../app/rest';
import { createSignedUrl, createStreamSession, streamPath } from '../drm-api';

const SERVER_ERROR_RETRIES = 2;
const RETRY_DELAY_MS = 2000;

export type PlaybackStatus = 'initializing' | 'ready' | 'error';

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

/** The secure player's state machine: stream session, signed-URL seeking, expiry recovery. */
export function useSecurePlayback(fileId: string, fileDuration: number) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [status, setStatus] = useState<PlaybackStatus>('initializing');
  const [error, setError] = useState<string | null>(null);
  const [sessionToken, setSessionToken] = useState<string | null>(null);
  const [duration, setDuration] = useState(fileDuration);
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [initRound, setInitRound] = useState(0);
  const source = useRef<Source>({ kind: 'stream', offset: 0 });
  // Where to pick up after a session is re-opened (the old one expired mid-play).
  const resume = useRef<{ position: number; play: boolean } | null>(null);
  const stopped = useRef(false);
  // A new file or a re-opened session starts over from 'initializing', set during render so the
  // old status is never shown with the new round.
  const [round, setRound] = useState({ fileId, initRound });
  if (round.fileId !== fileId || round.initRound !== initRound) {
    setRound({ fileId, initRound });
    setStatus('initializing');
    setError(null);
  }

  const streamUrl = sessionToken ? `${REST_BASE}${streamPath(sessionToken)}` : null;

  const play = useCallback(async () => {
    const audio = audioRef.current;
    if (!audio) return setError('Audio player not available');
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
      if (source.current.kind === 'stream' && audio.readyState >= HTMLMediaElement.HAVE_METADATA) return jump();
      source.current = { kind: 'stream', offset: 0 };
      audio.src = streamUrl;
      audio.addEventListener('loadedmetadata', jump, { once: true });
    },
    [play, streamUrl],
  );

  useEffect(() => {
    let cancelled = false;
    stopped.current = false;
    openSession(fileId, () => cancelled)
      .then((grant) => {
        if (cancelled) return;
        const audio = audioRef.current;
        if (!audio) throw new Error('Audio player not available');
        setSessionToken(grant.sessionToken);
        if (grant.duration > 0) setDuration(grant.duration);
        source.current = { kind: 'stream', offset: 0 };
        audio.src = `${REST_BASE}${streamPath(grant.sessionToken)}`;
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
  }, [fileId, initRound, play]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const onTime = () => setPosition(source.current.offset + audio.currentTime);
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
      if ((code === MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED || code === MediaError.MEDIA_ERR_NETWORK) && sessionToken) {
        const check = await restFetch(streamPath(sessionToken), { method: 'HEAD' }).catch(() => null);
        if (check?.status === 403) {
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

  /** Jumps to `target` seconds through a signed URL for that start time, and plays from there. */
  const seek = useCallback(
    async (target: number) => {
      const audio = audioRef.current;
      if (!audio) return setError('Audio player not available');
      if (!streamUrl) return;
      const at = Math.min(Math.max(0, target), duration);
      setPosition(at);
      setError(null);
      try {
        const { signedUrl } = await createSignedUrl(fileId, at);
        source.current = { kind: 'signed', offset: at };
        audio.src = signedUrl;
        await play();
      } catch (e) {
        console.warn('Signed URL unavailable; seeking in the regular stream', e);
        seekInStream(at, true);
      }
    },
    [duration, fileId, play, seekInStream, streamUrl],
  );

  const togglePlay = useCallback(() => {
    const audio = audioRef.current;
    if (!audio) return setError('Audio player not available');
    if (audio.paused) void play();
    else audio.pause();
  }, [play]);

  /** Ends playback for good (access revoked): no bytes are read after this. */
  const stop = useCallback((message: string) => {
    stopped.current = true;
    const audio = audioRef.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    // The listeners go with the session token, so the element's own pause event is not heard.
    setPlaying(false);
    setSessionToken(null);
    setStatus('error');
    setError(message);
  }, []);

  const pause = useCallback(() => audioRef.current?.pause(), []);

  return { audioRef, status, error, duration, position, playing, seek, togglePlay, pause, stop };
}

export type SecurePlayback = ReturnType<typeof useSecurePlayback>;
