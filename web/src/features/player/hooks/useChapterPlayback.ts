import { useCallback, useEffect, useRef, useState } from 'react';
import { authHeaders } from '../../../app/request-headers';
import { createChapterStreamUrl } from '../drm-api';
import { protectMediaElement } from '../media-protection';

type ShakaModule = typeof import('shaka-player').default;
type ShakaPlayer = InstanceType<ShakaModule['Player']>;

function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  // Shaka rejects with shaka.util.Error: a numeric code, no message.
  const code = (error as { code?: number } | null)?.code;
  return code !== undefined ? `Shaka error ${code}` : String(error);
}

/** What a failed start says; the player page and the admin chapter list word it differently. */
export interface ChapterPlaybackTexts {
  /** No stream URL could be had for the chapter. */
  noStream(message: string, label: string): string;
  /** The stream would not load or start. */
  notStarted(message: string, label: string): string;
}

const PLAYER_PAGE_TEXTS: ChapterPlaybackTexts = {
  noStream: (message) => `Failed to play chapter: ${message}`,
  notStarted: (message) => `Failed to play chapter: ${message}`,
};

/**
 * Plays ready chapters as AES-128 HLS through Shaka Player, loaded on first use so its code stays
 * out of every other page. The key request carries the session headers (request filter).
 */
export function useChapterPlayback(fileId: string, texts: ChapterPlaybackTexts = PLAYER_PAGE_TEXTS) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  // The element arrives with the chapter list, which may be drawn after this hook first runs: its
  // listeners are added when it does, through the callback ref below.
  const [audioElement, setAudioElement] = useState<HTMLAudioElement | null>(null);
  const attachAudio = useCallback((element: HTMLAudioElement | null) => {
    audioRef.current = element;
    setAudioElement(element);
  }, []);
  const playerRef = useRef<ShakaPlayer | null>(null);
  const [activeChapterId, setActiveChapterId] = useState<string | null>(null);
  const [loadingChapterId, setLoadingChapterId] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [position, setPosition] = useState(0);
  const [playing, setPlaying] = useState(false);

  const ensurePlayer = useCallback(async (audio: HTMLAudioElement): Promise<ShakaPlayer> => {
    if (playerRef.current) return playerRef.current;
    const shaka = (await import('shaka-player')).default;
    shaka.polyfill.installAll();
    if (!shaka.Player.isBrowserSupported()) throw new Error('This browser cannot play encrypted chapters');
    const player = new shaka.Player();
    await player.attach(audio);
    player.getNetworkingEngine()?.registerRequestFilter((_type, request) => {
      // Same-origin requests only: the playlist, segments and (type KEY) the AES key.
      if (request.uris.every((uri) => new URL(uri, window.location.href).origin === window.location.origin)) {
        Object.assign(request.headers, authHeaders());
      }
    });
    player.addEventListener('error', (event) => {
      const detail = (event as unknown as { detail?: unknown }).detail;
      setError(`Failed to stream chapter: ${errorText(detail)}`);
    });
    playerRef.current = player;
    return player;
  }, []);

  const playChapter = useCallback(
    async (chapterId: string, label: string) => {
      const audio = audioRef.current;
      if (!audio) return setError('Audio player not available');
      setError(null);
      setLoadingChapterId(chapterId);
      try {
        let streamUrl: string;
        try {
          ({ streamUrl } = await createChapterStreamUrl(fileId, chapterId));
        } catch (e) {
          return setError(texts.noStream(errorText(e), label));
        }
        try {
          const player = await ensurePlayer(audio);
          await player.load(new URL(streamUrl, window.location.origin).toString());
          setActiveChapterId(chapterId);
          setPosition(0);
          await audio.play();
        } catch (e) {
          setError(texts.notStarted(errorText(e), label));
        }
      } finally {
        setLoadingChapterId(null);
      }
    },
    [ensurePlayer, fileId, texts],
  );

  const stopChapter = useCallback(async () => {
    audioRef.current?.pause();
    setActiveChapterId(null);
    await playerRef.current?.unload();
  }, []);

  useEffect(() => {
    const audio = audioElement;
    if (!audio) return;
    protectMediaElement(audio);
    const onTime = () => setPosition(audio.currentTime);
    const onPlay = () => setPlaying(true);
    const onPause = () => setPlaying(false);
    audio.addEventListener('timeupdate', onTime);
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onPause);
    audio.addEventListener('ended', onPause);
    return () => {
      audio.removeEventListener('timeupdate', onTime);
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onPause);
      audio.removeEventListener('ended', onPause);
    };
  }, [audioElement]);

  useEffect(
    () => () => {
      void playerRef.current?.destroy();
      playerRef.current = null;
    },
    [],
  );

  return {
    audioRef: attachAudio,
    activeChapterId,
    loadingChapterId,
    error,
    position,
    playing,
    playChapter,
    stopChapter,
  };
}

export type ChapterPlayback = ReturnType<typeof useChapterPlayback>;
