import { createContext, useContext } from 'react';
import type { PlayerFileQuery } from '../../gql/graphql';
import type { ChapterMark } from './chapter-navigation';
import type { SecurePlayback } from './hooks/useSecurePlayback';
import type { SleepTimer } from './hooks/useSleepTimer';

export type PlayerFile = PlayerFileQuery['audioFile'];

/**
 * Screens on which the player draws its cover up to 640 px, from the original; narrower ones (a
 * phone, which shows it at card size) get the card-sized copy (512 px), a fraction of an
 * original's bytes (up to 5 MB). The theme's sm breakpoint, MUI's default (theme.ts keeps it).
 */
export const WIDE_COVER_MEDIA = '(min-width:600px)';

/** The cover the player shows for `file` on a wide screen or a narrow one. */
export const playerCoverUrl = (file: Pick<PlayerFile, 'coverUrl' | 'coverThumbnailUrl'>, wide: boolean) =>
  (wide ? file.coverUrl : file.coverThumbnailUrl) ?? null;

/** The one player of the app: what is loaded, where it is, and every control. */
export interface PlayerContextValue {
  file: PlayerFile | null;
  playback: SecurePlayback;
  cover: string | null;
  chapter: ChapterMark | null;
  /** Loads a file (a no-op when it is already the one playing); starts at its saved position. */
  open(file: PlayerFile): void;
  skip(seconds: number): void;
  /** The listener's jump lengths in seconds (usePlaybackSettings), for back and forward. */
  jumps: { back: number; forward: number };
  setJumps(jumps: { back?: number; forward?: number }): void;
  /** Goes back by the chosen jump length. */
  jumpBack(): void;
  /** Goes forward by the chosen jump length. */
  jumpForward(): void;
  /**
   * The loaded file was played to its end (here, or as the server last had it, until played
   * again): the player shows it finished rather than at 0:00.
   */
  finished: boolean;
  /** Starts a finished file again from 0:00. */
  playAgain(): void;
  /** Marks the loaded file finished or not, on the server and in the player. */
  markFinished(finished: boolean): Promise<void>;
  previousChapter(): void;
  nextChapter(): void;
  rate: number;
  setRate(rate: number): void;
  stepRate(steps: number): void;
  volume: number;
  muted: boolean;
  setVolume(volume: number): void;
  toggleMute(): void;
  sleep: { timer: SleepTimer; remaining: number | null };
  sleepAfter(minutes: number): void;
  sleepAtChapterEnd(): void;
  cancelSleep(): void;
}

export const PlayerContext = createContext<PlayerContextValue | null>(null);

export function usePlayer(): PlayerContextValue {
  const value = useContext(PlayerContext);
  if (!value) throw new Error('usePlayer must be used inside PlayerProvider');
  return value;
}
