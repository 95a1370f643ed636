import type { Request } from 'express';
import { z } from 'zod';
import { ApiKeyScope } from '../../api-key-scopes.js';
import { component, dataBody, timestamp } from '../../http/contract.js';
import { sendData } from '../../http/respond.js';
import { routes } from '../../http/route.js';
import { createFileLoaders } from '../files/file-loaders.js';
import { fileViewSchema, presentFiles } from '../files/file-view.js';
import { myStatsSchema, overviewSchema } from './stats.schemas.js';
import * as stats from './stats.service.js';

const periodSchema = z.object({
  start: z.iso.date().meta({ description: 'Its first day, in the asked time zone.' }),
  seconds: z.number().min(0).meta({ description: 'Seconds of real listening (not seeking).' }),
});

export const myStatsViewSchema = component(
  'MyListeningStats',
  z
    .object({
      timeZone: z.string(),
      days: z.array(periodSchema).meta({ description: 'Oldest first, today last; days without listening count 0.' }),
      weeks: z.array(periodSchema).meta({ description: 'Monday to Sunday, oldest first, this week last.' }),
      finished: z
        .array(z.object({ file: fileViewSchema, finishedAt: timestamp }))
        .meta({ description: 'Books you finished and may still see, most recent first, at most 50.' }),
    })
    .meta({ description: 'Your listening time per day and per week, and the books you finished.' }),
);

const playedBookSchema = z.object({
  file: fileViewSchema,
  seconds: z.number().min(0),
  listeners: z.int().min(0),
});

export const overviewViewSchema = component(
  'ListeningOverview',
  z
    .object({
      since: timestamp,
      totalSeconds: z.number().min(0),
      listenerCount: z.int().min(0),
      byTime: z.array(playedBookSchema).meta({ description: 'The most played books by listening time.' }),
      byListeners: z.array(playedBookSchema).meta({ description: 'The most played books by number of listeners.' }),
      activeListeners: z
        .array(
          z.object({
            userId: z.guid(),
            name: z.string(),
            email: z.string(),
            seconds: z.number().min(0),
            files: z.int().min(0),
          }),
        )
        .meta({ description: 'The users who listened in the period, most time first.' }),
    })
    .meta({ description: 'Listening over the last days, across every user.' }),
);

/** A whole-number query parameter as the service's schema reads it (absent stays absent). */
const numberParam = (req: Request, name: string) =>
  typeof req.query[name] === 'string' ? Number(req.query[name]) : undefined;
const stringParam = (req: Request, name: string) => (typeof req.query[name] === 'string' ? req.query[name] : undefined);

/** REST /api/v1/stats/me and /api/v1/admin/stats/listening. */
export const statsRoutes = routes([
  {
    operationId: 'myListeningStats',
    method: 'get',
    path: '/stats/me',
    tag: 'stats',
    summary: 'Your listening time and finished books',
    description:
      'Seconds of real listening per day and per week, cut in the time zone you name (UTC unless told), over every file you listened to; the finished books you may still see.',
    caller: 'signedIn',
    query: myStatsSchema,
    answers: { 200: { description: 'Your stats.', json: dataBody(myStatsViewSchema) } },
    scopes: [ApiKeyScope.LIBRARY_READ],
    async handle({ ctx, req, res }) {
      const mine = await stats.myListeningStats(ctx, {
        days: numberParam(req, 'days'),
        weeks: numberParam(req, 'weeks'),
        timeZone: stringParam(req, 'timeZone'),
      });
      const files = await presentFiles(
        mine.finished.map((book) => book.file),
        createFileLoaders(ctx.em),
      );
      sendData(res, { ...mine, finished: mine.finished.map((book, i) => ({ ...book, file: files[i] })) });
    },
  },
  {
    operationId: 'listeningOverview',
    method: 'get',
    path: '/admin/stats/listening',
    tag: 'stats',
    summary: 'Most played books and active listeners',
    description: 'Administrators: listening over the last `days` days (30 unless told), `limit` rows per list.',
    caller: 'admin',
    query: overviewSchema,
    answers: { 200: { description: 'The overview.', json: dataBody(overviewViewSchema) } },
    scopes: [ApiKeyScope.LIBRARY_READ, ApiKeyScope.USERS_READ],
    async handle({ ctx, req, res }) {
      const overview = await stats.listeningOverview(ctx, {
        days: numberParam(req, 'days'),
        limit: numberParam(req, 'limit'),
      });
      const loaders = createFileLoaders(ctx.em);
      const present = async (books: stats.PlayedBook[]) => {
        const files = await presentFiles(
          books.map((book) => book.file),
          loaders,
        );
        return books.map((book, i) => ({ ...book, file: files[i] }));
      };
      sendData(res, {
        ...overview,
        byTime: await present(overview.byTime),
        byListeners: await present(overview.byListeners),
      });
    },
  },
]);
