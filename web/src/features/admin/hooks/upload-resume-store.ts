/**
 * What a chunked upload needs to resume after the page is reloaded: the server's upload id and
 * the file's hash (so it is not hashed again), keyed by the file's name, size and modification
 * time. The bytes themselves cannot be kept: the admin picks the same file again.
 */
export interface ResumableUpload {
  uploadId: string;
  fileName: string;
  fileSize: number;
  lastModified: number;
  fileHash: string;
  totalChunks: number;
}

const KEY = 'admin.chunkedUploads';

function readAll(): ResumableUpload[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as ResumableUpload[]) : [];
  } catch {
    return [];
  }
}

function writeAll(entries: ResumableUpload[]): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(entries));
  } catch {
    // Storage full or blocked: resuming after a reload is then not offered.
  }
}

const sameFile = (entry: ResumableUpload, file: File) =>
  entry.fileName === file.name && entry.fileSize === file.size && entry.lastModified === file.lastModified;

export function findResumable(file: File): ResumableUpload | null {
  return readAll().find((entry) => sameFile(entry, file)) ?? null;
}

export function rememberUpload(entry: ResumableUpload): void {
  writeAll([...readAll().filter((e) => e.uploadId !== entry.uploadId), entry]);
}

export function forgetUpload(uploadId: string): void {
  writeAll(readAll().filter((e) => e.uploadId !== uploadId));
}
