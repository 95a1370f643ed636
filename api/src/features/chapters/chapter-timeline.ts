/** A chapter as far as its place on the file's timeline is concerned. */
export interface TimelineChapter {
  label: string;
  startTime: number;
  endTime?: number | null;
}

/** Chapters in playing order: by start time. */
export function byStart<T extends TimelineChapter>(chapters: readonly T[]): T[] {
  return [...chapters].sort((a, b) => a.startTime - b.startTime);
}

/** Where a chapter ends: its own end, else the next chapter's start, else the end of the file. */
export function effectiveEnd(sorted: readonly TimelineChapter[], index: number, duration: number): number {
  const own = sorted[index].endTime;
  if (own !== null && own !== undefined) return own;
  return index + 1 < sorted.length ? sorted[index + 1].startTime : duration;
}

const seconds = (v: number) => `${Number(v.toFixed(3))} s`;

/** Why a set of chapters cannot stand together on a file of `duration` seconds, or null. */
export function timelineProblem(chapters: readonly TimelineChapter[], duration: number): string | null {
  for (const c of chapters) {
    if (c.startTime < 0) return `Chapter "${c.label}": start time must be 0 or more`;
    if (c.startTime >= duration) {
      return `Chapter "${c.label}": start time must be within the file's duration (${seconds(duration)})`;
    }
    if (c.endTime !== null && c.endTime !== undefined) {
      if (c.endTime <= c.startTime) return `Chapter "${c.label}": end time must be after the start time`;
      if (c.endTime > duration) {
        return `Chapter "${c.label}": end time must be within the file's duration (${seconds(duration)})`;
      }
    }
  }
  const sorted = byStart(chapters);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const a = sorted[i];
    const b = sorted[i + 1];
    const aEnd = effectiveEnd(sorted, i, duration);
    if (a.startTime === b.startTime || aEnd > b.startTime) {
      return `Chapter "${b.label}" (from ${seconds(b.startTime)}) overlaps chapter "${a.label}" (${seconds(a.startTime)} to ${seconds(aEnd)})`;
    }
  }
  return null;
}

/** About ten-minute chapters (three to twelve of them), on whole seconds, each ending where the next starts. */
export function sampleChapterPlan(
  duration: number,
): { label: string; startTime: number; endTime: null; order: number }[] {
  const count = duration < 30 ? 1 : Math.min(12, Math.max(3, Math.round(duration / 600)));
  const step = duration / count;
  return Array.from({ length: count }, (_, i) => ({
    label: i === 0 ? 'Introduction' : `Chapter ${i}`,
    startTime: Math.floor(i * step),
    endTime: null,
    order: i,
  }));
}
