import { useMutation } from '@apollo/client/react';
import { useMediaQuery } from '@mui/material';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { onAccessRevoked } from '../../app/access-revoked';
import { MarkFinishedDocument } from '../../gql/graphql';
import { useAuth } from '../auth/auth-context';
import { useCoverImage } from '../library/hooks/useCoverImage';
import { chapterAt, chapterEnd, nextChapterStart, previousChapterStart } from './chapter-navigation';
import { useMediaSession } from './hooks/useMediaSession';
import { usePlaybackSettings } from './hooks/usePlaybackSettings';
import { useProgressSync } from './hooks/useProgressSync';
import { useSecurePlayback, type PlaybackSource } from './hooks/useSecurePlayback';
import { useSleepTimer } from './hooks/useSleepTimer';
import { protectMediaElement } from './media-protection';
import {
  PlayerContext,
  playerCoverUrl,
  WIDE_COVER_MEDIA,
  type PlayerContextValue,
  type PlayerFile,
} from './player-context';

/**
 * Where a file opens: where it was left, unless it was finished (then from the start, which
 * "Play again" plays; until then the player shows it finished).
 */
function savedPosition(file: PlayerFile): number {
  return file.progress && !file.progress.finished ? file.progress.position : 0;
}

/**
 * Owns the app's one audio element and its secure playback, above the routes, so listening goes
 * on from page to page. Signing out (forced or not), a device lock and revoked access stop it.
 */
export function PlayerProvider({ children }: { children: ReactNode }) {
  const { isAuthenticated, user } = useAuth();
  const [loaded, setLoaded] = useState<{ file: PlayerFile; source: PlaybackSource; openedFinished: boolean } | null>(
    null,
  );
  // Finished or not as this listening session decided it (the end reached, a mark, a new play);
  // until then, as the server had it when the file was opened.
  const [finishedFor, setFinishedFor] = useState<{ loadKey: number; finished: boolean } | null>(null);
  // The library's shelves ask the server again when shown (cache-and-network): nothing to refetch here.
  const [markOnServer] = useMutation(MarkFinishedDocument);
  // Signed out (logout, forced logout, device lock): the player closes with the session.
  if (!isAuthenticated && loaded) setLoaded(null);
  const file = loaded?.file ?? null;

  const playback = useSecurePlayback(loaded?.source ?? null);
  const { audioRef, status, position, duration, playing, seek, play, pause, stop } = playback;
  const settings = usePlaybackSettings(user?.id ?? null, audioRef);
  const loadKey = loaded?.source.loadKey ?? 0;
  const finished = loaded !== null && (finishedFor?.loadKey === loadKey ? finishedFor.finished : loaded.openedFinished);
  const sleep = useSleepTimer(position, playing, pause);
  const wide = useMediaQuery(WIDE_COVER_MEDIA, { noSsr: true });
  const cover = useCoverImage(file ? playerCoverUrl(file, wide) : null);
  const chapters = file?.chapters ?? [];
  const chapter = chapterAt(chapters, position);

  useProgressSync(audioRef, { fileId: file?.id ?? null, loadKey, position, duration, finished });

  // Played to the end: finished. Playing again (from 0:00, or from wherever the listener sought to)
  // starts a new play-through.
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !loaded) return;
    const onEnded = () => setFinishedFor({ loadKey, finished: true });
    const onPlay = () => setFinishedFor({ loadKey, finished: false });
    audio.addEventListener('ended', onEnded);
    audio.addEventListener('play', onPlay);
    return () => {
      audio.removeEventListener('ended', onEnded);
      audio.removeEventListener('play', onPlay);
    };
  }, [audioRef, loaded, loadKey]);

  useEffect(
    () =>
      onAccessRevoked((fileId, message) => {
        if (file && (!fileId || fileId === file.id)) stop(message);
      }),
    [file, stop],
  );

  // Read when a page opens a file, not a reason to open it again: `open` stays the same function.
  const stopped = useRef(false);
  useEffect(() => {
    stopped.current = status === 'error';
  }, [status]);
  const open = useCallback<PlayerContextValue['open']>(
    (next) =>
      setLoaded((current) => {
        // The file already playing goes on; a stopped one (revoked, failed) starts afresh.
        if (current?.file.id === next.id && !stopped.current) return { ...current, file: next };
        return {
          file: next,
          openedFinished: next.progress?.finished ?? false,
          source: {
            id: next.id,
            duration: next.duration,
            startAt: savedPosition(next),
            loadKey: (current?.source.loadKey ?? 0) + 1,
          },
        };
      }),
    [],
  );

  // The controls below change with every tick of the clock (skips start from the position):
  // memoizing them, or the context value built from them, would only add work.
  const ready = status === 'ready';
  const seekTo = (seconds: number) => {
    if (ready) void seek(seconds, { resume: playing });
  };
  const skip = (seconds: number) => seekTo(position + seconds);
  const jumpBack = () => skip(-settings.jumpBack);
  const jumpForward = () => skip(settings.jumpForward);
  const playAgain = () => {
    if (position > 0.5) void seek(0, { resume: true });
    else void play();
  };
  const markFinished = async (done: boolean) => {
    if (!file) return;
    // Decided before the pause below, so the pause saves no unfinished position over the mark.
    setFinishedFor({ loadKey, finished: done });
    if (done) pause();
    try {
      await markOnServer({ variables: { fileId: file.id, finished: done } });
    } catch (error) {
      // Not stored (offline, access gone): the player goes back to what the server has.
      setFinishedFor({ loadKey, finished: !done });
      console.warn('Finished state not saved', error);
    }
  };
  const nextChapter = () => {
    const start = nextChapterStart(chapters, position);
    if (start !== null) seekTo(start);
  };
  const previousChapter = () => seekTo(previousChapterStart(chapters, position));
  const sleepAtChapterEnd = () => sleep.sleepAtChapterEnd(chapter ? chapterEnd(chapters, chapter, duration) : duration);

  useMediaSession(
    file !== null && status !== 'error',
    {
      title: chapter?.label ?? file?.title ?? '',
      fileTitle: file?.title ?? '',
      artwork: cover,
      playing,
      position,
      duration,
      rate: settings.rate,
    },
    { play: () => void play(), pause, skip, jumpBack, jumpForward, seekTo, previousChapter, nextChapter, stop: pause },
  );

  const value: PlayerContextValue = {
    file,
    playback,
    cover,
    chapter,
    open,
    skip,
    jumps: { back: settings.jumpBack, forward: settings.jumpForward },
    setJumps: settings.setJumps,
    jumpBack,
    jumpForward,
    finished,
    playAgain,
    markFinished,
    previousChapter,
    nextChapter,
    rate: settings.rate,
    setRate: settings.setRate,
    stepRate: settings.stepRate,
    volume: settings.volume,
    muted: settings.muted,
    setVolume: settings.setVolume,
    toggleMute: settings.toggleMute,
    sleep: { timer: sleep.timer, remaining: sleep.remaining },
    sleepAfter: sleep.sleepAfter,
    sleepAtChapterEnd,
    cancelSleep: sleep.cancel,
  };

  return (
    <PlayerContext.Provider value={value}>
      {/* The one element: no controls of its own, nothing to download, cast or pop out. */}
      <audio
        ref={(element) => {
          audioRef.current = element;
          if (element) protectMediaElement(element);
        }}
        preload="metadata"
        onContextMenu={(e) => e.preventDefault()}
      />
      {children}
    </PlayerContext.Provider>
  );
}
