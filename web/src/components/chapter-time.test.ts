import { describe, expect, it } from 'vitest';
import { chapterSpan, formatTimeInput, parseTime, shownChapterEnd } from './chapter-time';

describe('parseTime', () => {
  it('reads h:mm:ss, m:ss and plain seconds', () => {
    expect(parseTime('1:02:03')).toEqual({ seconds: 3723 });
    expect(parseTime(' 2:03 ')).toEqual({ seconds: 123 });
    expect(parseTime('75')).toEqual({ seconds: 75 });
    expect(parseTime('0:00:07.5')).toEqual({ seconds: 7.5 });
    expect(parseTime('90:00')).toEqual({ seconds: 5400 });
  });

  it('refuses what is not a time, with a message saying what to type', () => {
    for (const bad of ['', 'soon', '1:2:3:4', '-5', '1.5:00', '1::2', '1:02:']) {
      expect(parseTime(bad), bad).toEqual({ error: 'Use h:mm:ss, m:ss or seconds, for example 1:02:03' });
    }
    expect(parseTime('1:60')).toEqual({ error: 'Minutes and seconds must be below 60' });
    expect(parseTime('1:75:00')).toEqual({ error: 'Minutes and seconds must be below 60' });
  });

  it('reads back what formatTimeInput shows', () => {
    for (const seconds of [0, 59, 61, 3599, 3723, 12.5, 7325.25]) {
      expect(parseTime(formatTimeInput(seconds))).toEqual({ seconds });
    }
    expect(formatTimeInput(3723)).toBe('1:02:03');
    expect(formatTimeInput(12.5)).toBe('0:12.5');
  });
});

describe('chapter ends', () => {
  const chapters = [
    { startTime: 0, endTime: null },
    { startTime: 150, endTime: 200 },
    { startTime: 3600, endTime: null },
  ];
  it("shows the next chapter's start for a chapter with no end, and End for the last", () => {
    expect(shownChapterEnd(chapters, chapters[0])).toBe(150);
    expect(chapterSpan(chapters, chapters[0])).toBe('0:00 - 2:30');
    expect(chapterSpan(chapters, chapters[1])).toBe('2:30 - 3:20');
    expect(chapterSpan(chapters, chapters[2])).toBe('1:00:00 - End');
  });
});
