import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import { AppError } from '../../errors.js';
import { migrationNames } from '../../db/migrations/names.js';
import {
  entryKind,
  parseHeader,
  parseManifest,
  storedPathOf,
  type BackupHeader,
  type Manifest,
  type ManifestEntry,
} from './backup-format.js';

/** An archive unpacked into a staging folder and checked against its own manifest. */
export interface StagedArchive {
  header: BackupHeader;
  /** Where a table's COPY data was staged. */
  tableFile(table: string): string;
  /** The folder holding the restored DATA_DIR's files (audio/, covers/, chapters/, secret.key). */
  filesDir: string;
}

/** The header and manifest are read into memory; they are small, and anything past this is not. */
const MAX_JSON_ENTRY = 64 * 1024 * 1024;

const refuse = (why: string) => new AppError('BAD_USER_INPUT', `The backup was refused, nothing was changed: ${why}`);

/**
 * Streams the archive into `stagingDir` (tables under db/, files under files/), hashing every
 * entry on its way to disk, then checks the lot against the manifest: every entry listed, none
 * missing, none extra, each of its size and SHA-256. Nothing outside `stagingDir` is touched, so a
 * refusal (a truncated or altered archive, a newer format or schema) changes nothing.
 */
export async function stageArchive(archive: Readable, stagingDir: string): Promise<StagedArchive> {
  const dbDir = path.join(stagingDir, 'db');
  const filesDir = path.join(stagingDir, 'files');
  const seen: ManifestEntry[] = [];
  let header: BackupHeader | null = null;
  let manifest: Manifest | null = null;
  const extract = tar.extract();
  const unreadable = (err: Error) => refuse(`it could not be read to its end (${err.message}): it may be cut short`);
  const feeding = pipeline(archive, extract).catch((err: Error) => {
    throw unreadable(err);
  });
  feeding.catch(() => undefined); // awaited below
  try {
    for await (const entry of extract) {
      const name = entry.header.name;
      const kind = entryKind(name);
      if (!kind || entry.header.type !== 'file')
        throw refuse(`it holds an entry this application never writes (${name})`);
      if (!header && kind.kind !== 'header') throw refuse('it does not begin with a backup header');
      if (manifest) throw refuse('it has entries after its manifest');
      if (seen.some((e) => e.path === name)) throw refuse(`it holds ${name} twice`);
      if (kind.kind === 'header' || kind.kind === 'manifest') {
        const text = await readSmall(entry, name);
        if (kind.kind === 'header') {
          header = parseHeader(text.toString('utf8'));
          refuseUnknownSchema(header);
          seen.push(describe(name, text));
        } else {
          manifest = parseManifest(text.toString('utf8'));
        }
        continue;
      }
      const target =
        kind.kind === 'table' ? path.join(dbDir, `${kind.table}.copy`) : path.join(filesDir, storedPathOf(name));
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      seen.push(await writeHashed(entry, name, target));
    }
    await feeding;
  } catch (err) {
    archive.destroy();
    throw err instanceof AppError ? err : unreadable(err as Error);
  }
  if (!header) throw refuse('it is empty');
  if (!manifest) throw refuse('it has no manifest: it was cut short');
  checkAgainstManifest(seen, manifest, header);
  return { header, filesDir, tableFile: (table) => path.join(dbDir, `${table}.copy`) };
}

function refuseUnknownSchema(header: BackupHeader): void {
  if (!migrationNames.includes(header.migration)) {
    throw new AppError(
      'BAD_USER_INPUT',
      `This backup was made by a newer version of the application (its database is at ${header.migration}): ` +
        'restore it with that version or a newer one',
    );
  }
}

function describe(name: string, bytes: Buffer): ManifestEntry {
  return { path: name, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** An entry's bytes (tar-stream yields Buffers; its types say unknown). */
async function readSmall(entry: AsyncIterable<unknown>, name: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    parts.push(chunk as Buffer);
    size += parts[parts.length - 1].length;
    if (size > MAX_JSON_ENTRY) throw refuse(`its ${name} is too large`);
  }
  return Buffer.concat(parts);
}

async function writeHashed(entry: AsyncIterable<unknown>, name: string, target: string): Promise<ManifestEntry> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(entry, tap, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
  return { path: name, size, sha256: hash.digest('hex') };
}

function checkAgainstManifest(seen: ManifestEntry[], manifest: Manifest, header: BackupHeader): void {
  const listed = new Map(manifest.entries.map((e) => [e.path, e]));
  for (const entry of seen) {
    const expected = listed.get(entry.path);
    if (!expected) throw refuse(`${entry.path} is not in its manifest`);
    if (expected.size !== entry.size || expected.sha256 !== entry.sha256) {
      throw refuse(`${entry.path} does not match its manifest (altered or damaged)`);
    }
    listed.delete(entry.path);
  }
  const absent = [...listed.keys()];
  if (absent.length > 0) throw refuse(`${absent.length} entries of its manifest are missing (first: ${absent[0]})`);
  const tables = new Set(seen.map((e) => entryKind(e.path)).flatMap((k) => (k?.kind === 'table' ? [k.table] : [])));
  const unlisted = header.tables.find((t) => !tables.has(t.name));
  if (unlisted) throw refuse(`the data of table ${unlisted.name} is missing`);
}
