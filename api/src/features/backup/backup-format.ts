/**
 * The backup archive: one uncompressed POSIX tar (audio and covers are compressed already, and
 * plain tar streams at disk speed), its entries in this order:
 *
 *   backup.json            the header (BackupHeader): format version, migration level, created at,
 *                          the tables with their columns in load order, the sequences' values
 *   db/<table>.copy        each table in PostgreSQL's COPY text format, in load order
 *   files/<stored path>    the media the database snapshot references, at their paths under
 *                          DATA_DIR (audio/, covers/, chapters/<id>/<n>.ts), and secret.key
 *   manifest.json          every entry above with its size and SHA-256
 *
 * The header comes first so a restore refuses a newer format before it stages anything; the
 * manifest comes last because it is made while the entries stream out.
 */
import path from 'node:path';
import { AppError } from '../../errors.js';
import { storageDirs } from '../files/storage-paths.js';

/** Raised with every change a restore could not read; readers refuse anything newer. */
export const BACKUP_FORMAT_VERSION = 1;
export const BACKUP_FORMAT_NAME = 'protected-audio-library-backup';

export const HEADER_ENTRY = 'backup.json';
export const MANIFEST_ENTRY = 'manifest.json';
const DB_PREFIX = 'db/';
const FILES_PREFIX = 'files/';

/** The signing secret DATA_DIR keeps when SECRET is unset (config.ts): restored, sign-ins survive. */
export const SECRET_FILE = 'secret.key';

export interface DumpedTable {
  name: string;
  /** Columns in the order of the COPY data. */
  columns: string[];
}

export interface DumpedSequence {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT_NAME;
  formatVersion: number;
  /** The last applied migration: a restore rebuilds the schema up to it, loads, then migrates on. */
  migration: string;
  createdAt: string;
  /** Tables in an order that satisfies every foreign key when loaded first to last. */
  tables: DumpedTable[];
  sequences: DumpedSequence[];
}

export interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  entries: ManifestEntry[];
}

export const tableEntry = (table: string): string => `${DB_PREFIX}${table}.copy`;
export const fileEntry = (stored: string): string => `${FILES_PREFIX}${stored.split(path.sep).join('/')}`;

/** Media folders a backup carries; uploads/ (parts in progress) and tmp/ are not media. */
const MEDIA_DIRS: readonly string[] = [storageDirs.audio, storageDirs.covers, storageDirs.chapters];
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * What an archive entry name may be, checked before anything is written for it: a path under
 * DATA_DIR's media folders, the secret, a table, or the header and manifest. Anything else (an
 * absolute path, `..`, a folder no backup writes) is refused, so an archive cannot write outside
 * the staging folder whatever it holds.
 */
export type EntryKind = { kind: 'header' } | { kind: 'manifest' } | { kind: 'table'; table: string } | { kind: 'file' };

export function entryKind(name: string): EntryKind | null {
  if (name === HEADER_ENTRY) return { kind: 'header' };
  if (name === MANIFEST_ENTRY) return { kind: 'manifest' };
  if (name.startsWith(DB_PREFIX) && name.endsWith('.copy')) {
    const table = name.slice(DB_PREFIX.length, -'.copy'.length);
    return /^[a-z_][a-z0-9_]*$/.test(table) ? { kind: 'table', table } : null;
  }
  if (!name.startsWith(FILES_PREFIX)) return null;
  const segments = name.slice(FILES_PREFIX.length).split('/');
  if (segments.length === 1) return segments[0] === SECRET_FILE ? { kind: 'file' } : null;
  return MEDIA_DIRS.includes(segments[0]) && segments.every((s) => SAFE_SEGMENT.test(s)) ? { kind: 'file' } : null;
}

/** The path under DATA_DIR a `files/` entry restores to. */
export const storedPathOf = (entry: string): string => entry.slice(FILES_PREFIX.length);

const refused = (why: string) => new AppError('BAD_USER_INPUT', `This is not a usable backup: ${why}`);

/** Checks the header's shape and refuses a format newer than this build reads. */
export function parseHeader(text: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(text) as Partial<BackupHeader>;
  } catch {
    throw refused('its header is not JSON');
  }
  if (header.format !== BACKUP_FORMAT_NAME || typeof header.formatVersion !== 'number') {
    throw refused('it is not a backup of this application');
  }
  if (header.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new AppError(
      'BAD_USER_INPUT',
      `This backup has format version ${header.formatVersion}, newer than this version of the application reads ` +
        `(${BACKUP_FORMAT_VERSION}): restore it with the version that made it, or a newer one`,
    );
  }
  if (typeof header.migration !== 'string' || !Array.isArray(header.tables) || !Array.isArray(header.sequences)) {
    throw refused('its header is incomplete');
  }
  return header as BackupHeader;
}

export function parseManifest(text: string): Manifest {
  try {
    const manifest = JSON.parse(text) as Manifest;
    if (Array.isArray(manifest.entries)) return manifest;
  } catch {
    // refused below
  }
  throw refused('its manifest is unreadable');
}
