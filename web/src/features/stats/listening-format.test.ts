import { describe, expect, it } from 'vitest';
import { formatDay, formatListening } from './listening-format';

describe('listening format', () => {
  it('says seconds, minutes, then hours and minutes', () => {
    expect(formatListening(0)).toBe('0 s');
    expect(formatListening(59.4)).toBe('59 s');
    expect(formatListening(61)).toBe('1 min');
    expect(formatListening(3599)).toBe('59 min');
    expect(formatListening(2 * 3600 + 5 * 60 + 30)).toBe('2 h 05 min');
  });

  it('keeps a calendar date on its day whatever the time zone', () => {
    const day = formatDay('2026-11-23', { day: 'numeric', month: 'numeric', year: 'numeric' });
    expect(day).toContain('23');
    expect(day).not.toContain('22');
  });
});
