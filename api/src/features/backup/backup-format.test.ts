import { describe, expect, it } from 'vitest';
import { entryKind } from './backup-format.js';
import { parseCopyLine } from './copy-text.js';
import { loadOrder } from './database-catalog.js';

describe('archive entry names', () => {
  it('accept what a backup writes', () => {
    expect(entryKind('backup.json')).toEqual({ kind: 'header' });
    expect(entryKind('db/chapter_segments.copy')).toEqual({ kind: 'table', table: 'chapter_segments' });
    expect(entryKind('files/audio/0b6c.mp3')).toEqual({ kind: 'file' });
    expect(entryKind('files/chapters/0b6c/12.ts')).toEqual({ kind: 'file' });
    expect(entryKind('files/secret.key')).toEqual({ kind: 'file' });
  });

  it('refuse anything that could land outside the media folders', () => {
    for (const name of [
      '/etc/passwd',
      'files/../../etc/passwd',
      'files/audio/../../x',
      'files/uploads/abc/data',
      'files/pgdata/PG_VERSION',
      'files/other.key',
      'db/users;drop.copy',
      'db/Users.copy',
      'notes.txt',
    ]) {
      expect(entryKind(name), name).toBeNull();
    }
  });
});

describe('COPY text', () => {
  it('reads NULLs, escapes and bytea as COPY TO writes them', () => {
    expect(parseCopyLine('1\t\\N\ta\\tb\\nc\\\\d\t\\\\x00ff')).toEqual(['1', null, 'a\tb\nc\\d', '\\x00ff']);
    expect(parseCopyLine('{x1,"y\\\\"z"}')).toEqual(['{x1,"y\\"z"}']);
  });
});

describe('table load order', () => {
  it('puts every table after the tables it references', () => {
    const order = loadOrder(
      ['checkpoints', 'users', 'audio_files', 'chapters'],
      [
        { table: 'checkpoints', references: 'users' },
        { table: 'checkpoints', references: 'audio_files' },
        { table: 'chapters', references: 'audio_files' },
        { table: 'audio_files', references: 'users' },
      ],
    );
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('audio_files'));
    expect(order.indexOf('audio_files')).toBeLessThan(order.indexOf('checkpoints'));
    expect(order.indexOf('audio_files')).toBeLessThan(order.indexOf('chapters'));
  });

  it('refuses a cycle, naming it', () => {
    expect(() =>
      loadOrder(
        ['a', 'b'],
        [
          { table: 'a', references: 'b' },
          { table: 'b', references: 'a' },
        ],
      ),
    ).toThrow(/cycle \(a -> b -> a\)/);
  });
});
