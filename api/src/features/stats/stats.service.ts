import type { Ctx } from '../../context.js';
import { requireAdmin, requireCaller } from '../../caller-policy.js';
import { parseInput } from '../../validation.js';
import { visibleFilesCondition } from '../access/visibility.js';
import { FILE_COLUMNS, toFileSummary, type FileRow, type FileSummary } from '../files/files.service.js';
import { myStatsSchema, overviewSchema, type MyStatsRequest, type OverviewRequest } from './stats.schemas.js';

/** At most this many finished books are listed on the stats page (most recent first). */
export const FINISHED_LISTED = 50;

/** Seconds listened in one day or week, named by its first day (YYYY-MM-DD, in the asked time zone). */
export interface ListeningPeriod {
  start: string;
  seconds: number;
}

export interface FinishedBook {
  file: FileSummary;
  finishedAt: Date;
}

export interface MyListeningStats {
  timeZone: string;
  /** The last `days` days, oldest first, today last; days without listening count 0. */
  days: ListeningPeriod[];
  /** The last `weeks` weeks (Monday to Sunday), oldest first, this week last. */
  weeks: ListeningPeriod[];
  finished: FinishedBook[];
}

const DAY_MS = 86_400_000;

/** A calendar date (YYYY-MM-DD) moved by whole days, computed on UTC so no clock change shifts it. */
function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Today's date in a time zone, as YYYY-MM-DD ('en-CA' writes dates that way). */
function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The caller's listening time per day and per week, and the books they finished.
 *
 * The time is theirs: it counts every file they listened to, also one they may no longer see
 * (listening they did stays listening done), but the stats never name a file: finished books are
 * listed only while the caller may still see them, through the library's own visibility condition.
 *
 * Days are cut in the asked IANA time zone (UTC unless told): the server cannot know where a
 * listener is, and a browser knows its zone (Intl), so the client says. The hours are stored in UTC,
 * so any zone on a whole-hour offset cuts exactly; a half-hour zone can shift up to 30 minutes of
 * listening at midnight into the neighbouring day.
 */
export async function myListeningStats(ctx: Ctx, rawInput: MyStatsRequest = {}): Promise<MyListeningStats> {
  const caller = requireCaller(ctx);
  const input = parseInput(myStatsSchema, rawInput);
  const today = todayIn(input.timeZone);
  const mondayOffset = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7;
  const thisWeek = addDays(today, -mondayOffset);
  const firstDay = addDays(today, -(input.days - 1));
  const firstWeek = addDays(thisWeek, -7 * (input.weeks - 1));
  const from = firstDay < firstWeek ? firstDay : firstWeek;

  const visible = visibleFilesCondition(caller);
  const [perDay, finishedRows] = await Promise.all([
    ctx.em.execute<{ day: string; seconds: number }[]>(
      `select to_char((hour at time zone ?)::date, 'YYYY-MM-DD') as day, sum(seconds)::float8 as seconds
       from listening_hours
       where user_id = ? and hour >= (?::date)::timestamp at time zone ?
       group by 1`,
      [input.timeZone, caller.user.id, from, input.timeZone],
    ),
    ctx.em.execute<(FileRow & { finished_at: string | Date })[]>(
      `select ${FILE_COLUMNS}, lp.updated_at as finished_at
       from listening_progress lp join audio_files on audio_files.id = lp.file_id
       where lp.user_id = ? and lp.finished and (${visible.sql})
       order by lp.updated_at desc, audio_files.id asc limit ?`,
      [caller.user.id, ...visible.params, FINISHED_LISTED],
    ),
  ]);

  const byDay = new Map(perDay.map((row) => [row.day, row.seconds]));
  const secondsOn = (day: string) => byDay.get(day) ?? 0;
  const days = Array.from({ length: input.days }, (_, i) => {
    const start = addDays(firstDay, i);
    return { start, seconds: secondsOn(start) };
  });
  const weeks = Array.from({ length: input.weeks }, (_, i) => {
    const start = addDays(firstWeek, 7 * i);
    let seconds = 0;
    for (let d = 0; d < 7; d++) seconds += secondsOn(addDays(start, d));
    return { start, seconds };
  });
  return {
    timeZone: input.timeZone,
    days,
    weeks,
    finished: finishedRows.map((row) => ({ file: toFileSummary(row), finishedAt: new Date(row.finished_at) })),
  };
}

export interface PlayedBook {
  file: FileSummary;
  seconds: number;
  listeners: number;
}

export interface ActiveListener {
  userId: string;
  name: string;
  email: string;
  seconds: number;
  files: number;
}

export interface ListeningOverview {
  since: Date;
  totalSeconds: number;
  listenerCount: number;
  byTime: PlayedBook[];
  byListeners: PlayedBook[];
  activeListeners: ActiveListener[];
}

interface PlayedRow extends FileRow {
  seconds: number;
  listeners: number;
}

const toPlayedBook = (row: PlayedRow): PlayedBook => ({
  file: toFileSummary(row),
  seconds: row.seconds,
  listeners: row.listeners,
});

/**
 * Administrators: the most played books over the last `days` days, by listening time and by
 * number of listeners, and the users who listened in that time with their time each. Four
 * statements whatever the number of rows; the hour index keeps each to the period's rows.
 */
export async function listeningOverview(ctx: Ctx, rawInput: OverviewRequest = {}): Promise<ListeningOverview> {
  requireAdmin(ctx);
  const input = parseInput(overviewSchema, rawInput);
  const since = new Date(Date.now() - input.days * DAY_MS);
  const played = (order: string) =>
    ctx.em.execute<PlayedRow[]>(
      `select ${FILE_COLUMNS}, played.seconds, played.listeners
       from (select file_id, sum(seconds)::float8 as seconds, count(distinct user_id)::int as listeners
             from listening_hours where hour >= date_trunc('hour', ?::timestamptz, 'UTC') group by file_id) played
       join audio_files on audio_files.id = played.file_id
       order by ${order}, audio_files.id asc limit ?`,
      [since, input.limit],
    );
  const [totals, byTime, byListeners, listeners] = await Promise.all([
    ctx.em.execute<{ seconds: number; listeners: number }[]>(
      `select coalesce(sum(seconds), 0)::float8 as seconds, count(distinct user_id)::int as listeners
       from listening_hours where hour >= date_trunc('hour', ?::timestamptz, 'UTC')`,
      [since],
    ),
    played('played.seconds desc, played.listeners desc'),
    played('played.listeners desc, played.seconds desc'),
    ctx.em.execute<{ id: string; name: string; email: string; seconds: number; files: number }[]>(
      `select users.id, users.name, users.email, active.seconds, active.files
       from (select user_id, sum(seconds)::float8 as seconds, count(distinct file_id)::int as files
             from listening_hours where hour >= date_trunc('hour', ?::timestamptz, 'UTC') group by user_id) active
       join users on users.id = active.user_id
       order by active.seconds desc, users.id asc limit ?`,
      [since, input.limit],
    ),
  ]);
  return {
    since,
    totalSeconds: totals[0].seconds,
    listenerCount: totals[0].listeners,
    byTime: byTime.map(toPlayedBook),
    byListeners: byListeners.map(toPlayedBook),
    activeListeners: listeners.map((row) => ({
      userId: row.id,
      name: row.name,
      email: row.email,
      seconds: row.seconds,
      files: row.files,
    })),
  };
}
