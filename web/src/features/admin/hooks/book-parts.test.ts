import { describe, expect, it } from 'vitest';
import { joinOrder, partLabel, type BookPart } from './book-parts';

const part = (name: string, track: number | null = null, title: string | null = null): BookPart => ({
  file: new File(['x'], name, { type: 'audio/mpeg' }),
  title,
  album: null,
  track,
});

describe('the order parts of a book are joined in', () => {
  it('goes by track number, then by file name as a person reads it', () => {
    const order = joinOrder([part('Part 10.mp3'), part('Part 2.mp3'), part('z.mp3', 2), part('y.mp3', 1)]);
    expect(order.map((p) => p.file.name)).toEqual(['y.mp3', 'z.mp3', 'Part 2.mp3', 'Part 10.mp3']);
  });

  it('names a part by its title tag, else by its file name without the extension', () => {
    expect(partLabel(part('01 - Intro.mp3', 1, 'Introduction'))).toBe('Introduction');
    expect(partLabel(part('01 - Intro.mp3'))).toBe('01 - Intro');
  });
});
