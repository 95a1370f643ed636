/** Display formats of the admin screens (spec section 9). */
import { formatTime } from '../../components/format-time';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** Bytes in B, KB, MB, GB or TB, two decimals above bytes. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const value = bytes / 1024 ** exponent;
  return `${exponent === 0 ? value : value.toFixed(2)} ${UNITS[exponent]}`;
}

/** Durations in tables: m:ss under an hour, else 'Xh YYm'. */
export function formatDurationShort(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  if (s < 3600) return formatTime(s);
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function formatDate(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleDateString() : '';
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : '';
}

/** The server's message when there is one, else the screen's default (spec section 8). */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
