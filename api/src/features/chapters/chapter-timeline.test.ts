import { describe, expect, it } from 'vitest';
import { sampleChapterPlan, timelineProblem } from './chapter-timeline.js';

describe('timelineProblem', () => {
  it('accepts chapters that meet end to start, with automatic ends', () => {
    expect(
      timelineProblem(
        [
          { label: 'a', startTime: 0, endTime: 10 },
          { label: 'b', startTime: 10 },
          { label: 'c', startTime: 50, endTime: null },
        ],
        60,
      ),
    ).toBeNull();
  });

  it('refuses negative, reversed, out-of-range and overlapping times with the chapter named', () => {
    expect(timelineProblem([{ label: 'a', startTime: -1 }], 60)).toBe('Chapter "a": start time must be 0 or more');
    expect(timelineProblem([{ label: 'a', startTime: 60 }], 60)).toMatch(
      /start time must be within the file's duration \(60 s\)/,
    );
    expect(timelineProblem([{ label: 'a', startTime: 10, endTime: 5 }], 60)).toMatch(
      /end time must be after the start time/,
    );
    expect(timelineProblem([{ label: 'a', startTime: 10, endTime: 61 }], 60)).toMatch(/end time must be within/);
    expect(
      timelineProblem(
        [
          { label: 'a', startTime: 0, endTime: 20 },
          { label: 'b', startTime: 15 },
        ],
        60,
      ),
    ).toBe('Chapter "b" (from 15 s) overlaps chapter "a" (0 s to 20 s)');
    expect(
      timelineProblem(
        [
          { label: 'a', startTime: 5 },
          { label: 'b', startTime: 5 },
        ],
        60,
      ),
    ).toMatch(/overlaps/);
  });
});

describe('sampleChapterPlan', () => {
  it('spreads three to twelve chapters over the file, starting at 0', () => {
    expect(sampleChapterPlan(20)).toHaveLength(1);
    const hour = sampleChapterPlan(3600);
    expect(hour).toHaveLength(6);
    expect(hour.map((c) => c.startTime)).toEqual([0, 600, 1200, 1800, 2400, 3000]);
    expect(sampleChapterPlan(120)).toHaveLength(3);
    expect(sampleChapterPlan(100 * 3600)).toHaveLength(12);
    expect(timelineProblem(sampleChapterPlan(3601), 3601)).toBeNull();
  });
});
