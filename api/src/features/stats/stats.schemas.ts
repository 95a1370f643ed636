import { z } from 'zod';

const wholeNumber = (what: string, max: number, fallback: number) => {
  const message = `${what} must be a whole number between 1 and ${max}`;
  return z.number({ error: message }).int(message).min(1, message).max(max, message).default(fallback);
};

/**
 * An IANA time zone name ("Europe/Paris", "UTC"), checked by the runtime's own list. Offsets such as
 * "+02:00" are refused: PostgreSQL reads them with the POSIX sign, the opposite of ISO 8601.
 */
export const timeZoneSchema = z
  .string({ error: 'timeZone must be a time zone name such as Europe/Paris or UTC' })
  .max(64, 'timeZone must be a time zone name such as Europe/Paris or UTC')
  .refine((name) => /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name) && knownTimeZone(name), {
    message: 'timeZone must be a time zone name such as Europe/Paris or UTC',
  })
  .default('UTC');

function knownTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The caller's own stats: REST GET /stats/me and the myListeningStats query. */
export const myStatsSchema = z.object({
  days: wholeNumber('days', 366, 14),
  weeks: wholeNumber('weeks', 53, 8),
  timeZone: timeZoneSchema,
});

/** The administrators' overview: REST GET /admin/stats/listening and the listeningOverview query. */
export const overviewSchema = z.object({
  days: wholeNumber('days', 366, 30),
  limit: wholeNumber('limit', 50, 10),
});

export type MyStatsRequest = z.input<typeof myStatsSchema>;
export type OverviewRequest = z.input<typeof overviewSchema>;
