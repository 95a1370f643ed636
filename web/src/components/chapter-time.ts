// Chapter times as people type and read them: h:mm:ss (or m:ss, or plain seconds) in the chapter
// editor, and a chapter's end as where the next one starts when it has no end of its own.

import { formatTime } from './format-time';

export type ParsedTime = { seconds: number } | { error: string };

const FORMAT_HINT = 'Use h:mm:ss, m:ss or seconds, for example 1:02:03';

/**
 * Reads "1:02:03", "2:03" or "75" (a fraction of a second allowed on the last part, "1:02.5") as
 * seconds. Minutes and seconds after a larger unit must be below 60.
 */
export function parseTime(text: string): ParsedTime {
  const parts = text.trim().split(':');
  if (parts.length > 3 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part.trim()))) return { error: FORMAT_HINT };
  if (parts.slice(0, -1).some((part) => part.includes('.'))) return { error: FORMAT_HINT };
  const values = parts.map(Number);
  if (values.slice(1).some((value) => value >= 60)) return { error: 'Minutes and seconds must be below 60' };
  return { seconds: values.reduce((total, value) => total * 60 + value, 0) };
}

/** Seconds as the editor shows them: the app's clock, keeping any fraction of a second. */
export function formatTimeInput(seconds: number): string {
  const whole = Math.floor(seconds);
  const fraction = Math.round((seconds - whole) * 1000) / 1000;
  return fraction > 0 ? `${formatTime(whole)}${String(fraction).slice(1)}` : formatTime(whole);
}

interface TimedChapter {
  startTime: number;
  endTime: number | null;
}

/** Where a chapter ends as shown: its own end, else the next chapter's start; null for the last one. */
export function shownChapterEnd(chapters: readonly TimedChapter[], chapter: TimedChapter): number | null {
  if (chapter.endTime !== null) return chapter.endTime;
  const later = chapters.filter((c) => c.startTime > chapter.startTime).map((c) => c.startTime);
  return later.length > 0 ? Math.min(...later) : null;
}

/** "0:00 - 2:30", with "End" for a last chapter that runs to the end of the file. */
export function chapterSpan(chapters: readonly TimedChapter[], chapter: TimedChapter): string {
  const end = shownChapterEnd(chapters, chapter);
  return `${formatTime(chapter.startTime)} - ${end === null ? 'End' : formatTime(end)}`;
}
