import { stat } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile } from '../access/visibility.js';
import { isAdmin, requireDeviceCaller } from '../../caller-policy.js';
import { resolveStoredPath } from '../files/storage-paths.js';
import { sessionChapterFacts, type ChapterFacts } from './access-facts.js';
import { allowStream, streamRefused, type Presenter } from './stream-access.js';
import { authenticateRequest, type SamePresenterCheck } from '../auth/authenticate-request.js';
import { sameSecret, signParts, verifyParts } from '../../signing.js';
import { chapterStreamUrlSchema } from './stream.schemas.js';
import { isLiveExpiry } from '../../http/url-signing.js';
import { meterKey, meterSegment } from './metering.js';
import { ChapterSegment } from '../chapters/chapter-segment.entity.js';
import { Chapter, ChapterStatus } from '../chapters/chapter.entity.js';
import { KEY_URI_PLACEHOLDER, SEGMENT_BASE_PLACEHOLDER } from '../chapters/hls-encode.js';

export const NOT_READY_MESSAGE = 'Chapter is not ready for playback. Please finalize chapters first.';
const PLAYLIST_PURPOSE = 'chapter-playlist:v2';
const SEGMENT_PURPOSE = 'chapter-segments:v2';

/** What a chapter playlist URL carries: the device session it was issued to, when that began, and its expiry. */
export interface PlaybackGrant {
  sid: string | null;
  st: number | null;
  exp: number | null;
  sig: string | null;
}

export interface ChapterStreamUrl {
  streamUrl: string;
  expiresAt: Date;
}

const chapterBase = (chapterId: string) => `/api/v1/chapters/${chapterId}`;

/** Whose segment URLs these are: the session the playlist was given to, and its account. */
interface SegmentOwner {
  userId: string;
  sessionId: string;
  sessionStart: number;
  /** An administrator's: metered, never paced or flagged. */
  exempt: boolean;
}

/**
 * Segment URLs carry a token, signed with the server secret, naming the session whose playlist
 * listed them: segments need no other credential and any cache may keep them, while rip detection
 * counts each one for that session's account, wherever it is fetched from.
 */
export function segmentToken(secret: string, chapterId: string, owner: SegmentOwner): string {
  const parts = [owner.userId, owner.sessionId, owner.sessionStart, owner.exempt ? 1 : 0];
  return [...parts, signParts(secret, SEGMENT_PURPOSE, [chapterId, ...parts]).slice(0, 32)].join('.');
}

/** The owner a segment token names, if the server signed it for this chapter. */
function segmentOwner(secret: string, chapterId: string, token: string): SegmentOwner | null {
  const [userId, sessionId, start, exempt, sig, ...rest] = token.split('.');
  if (rest.length > 0 || !sig || !/^\d{1,15}$/.test(start) || (exempt !== '0' && exempt !== '1')) return null;
  const owner = { userId, sessionId, sessionStart: Number(start), exempt: exempt === '1' };
  return sameSecret(sig, segmentToken(secret, chapterId, owner).slice(-32)) ? owner : null;
}

function grantQuery(secret: string, chapterId: string, sid: string, st: number, exp: number): string {
  const sig = signParts(secret, PLAYLIST_PURPOSE, [chapterId, sid, st, exp]);
  return new URLSearchParams({ sid, st: String(st), exp: String(exp), sig }).toString();
}

/** A signed playlist URL for a ready chapter, bound to the caller's device session. */
export async function createChapterStreamUrl(
  ctx: Ctx,
  fileId: string,
  chapterId: string,
  input: unknown,
): Promise<ChapterStreamUrl> {
  const caller = requireDeviceCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const { expiresIn } = parseInput(chapterStreamUrlSchema, input ?? {});
  const chapter = await ctx.em.findOne(Chapter, { id: parseId(chapterId, 'chapterId'), file });
  if (!chapter) throw new AppError('NOT_FOUND', 'Chapter not found');
  if (chapter.status !== ChapterStatus.ready) throw new AppError('CONFLICT', NOT_READY_MESSAGE);
  const exp = Date.now() + expiresIn;
  const query = grantQuery(
    ctx.deps.config.secret,
    chapter.id,
    caller.session.id,
    caller.session.createdAt.getTime(),
    exp,
  );
  return { streamUrl: `${chapterBase(chapter.id)}/playlist.m3u8?${query}`, expiresAt: new Date(exp) };
}

const NEEDS_SESSION = {
  playlist: 'A chapter playlist is only given to the signed-in session it was issued to',
  key: 'A chapter key is only given to the signed-in session its playlist was issued to',
};

/**
 * Playlist and key answer a bearer token that does not hold (session ended, account locked, another
 * device) with 403, as every other refusal of theirs: the key endpoint refuses, it does not ask to sign in.
 */
const forbidden = (err: AppError) => new AppError('FORBIDDEN', err.message);

/**
 * Checks a playback grant as of now: the signature and expiry, then that the session it names is
 * active, its account unlocked, the file still visible to it and the chapter ready.
 */
async function checkGrant(
  ctx: Ctx,
  assertSamePresenter: SamePresenterCheck,
  chapterId: string,
  grant: PlaybackGrant,
  part: 'playlist' | 'key',
): Promise<{ chapter: NonNullable<ChapterFacts['chapter']>; facts: ChapterFacts }> {
  const id = parseId(chapterId, 'chapterId');
  const { sid, st, exp, sig } = grant;
  if (
    !sid ||
    st === null ||
    exp === null ||
    !verifyParts(ctx.deps.config.secret, PLAYLIST_PURPOSE, [id, sid, st, exp], sig)
  ) {
    throw new AppError('FORBIDDEN', 'Invalid signed URL');
  }
  if (!isLiveExpiry(exp)) throw new AppError('FORBIDDEN', 'Signed URL is no longer valid');
  const facts = await sessionChapterFacts(ctx.em, parseId(sid, 'sid'), id, part);
  if (!facts) throw streamRefused();
  await assertSamePresenter(facts);
  // A session that ended since (even if the device has signed in again) takes its URLs with it.
  await allowStream(ctx, facts, st, 'Chapter not found');
  const { chapter } = facts;
  if (!chapter) throw new AppError('NOT_FOUND', 'Chapter not found');
  if (chapter.status !== ChapterStatus.ready || !chapter.hasPlaylist) throw new AppError('CONFLICT', NOT_READY_MESSAGE);
  if (part === 'key') meterKey(ctx, facts, chapter.id);
  return { chapter, facts };
}

/** The chapter's playlist with this grant's key URL and the segment folder filled in. */
export async function chapterPlaylist(
  ctx: Ctx,
  presenter: Presenter,
  chapterId: string,
  grant: PlaybackGrant,
): Promise<string> {
  if (!presenter.token) throw new AppError('FORBIDDEN', NEEDS_SESSION.playlist);
  const { chapter, facts } = await authenticateRequest(ctx, presenter, {
    alongside: (assertSamePresenter) => checkGrant(ctx, assertSamePresenter, chapterId, grant, 'playlist'),
    refused: streamRefused,
    onAuthFailure: forbidden,
  });
  const { secret } = ctx.deps.config;
  const base = chapterBase(chapter.id);
  const { sid, st, exp } = grant as { sid: string; st: number; exp: number };
  const keyUri = `${base}/key?${grantQuery(secret, chapter.id, sid, st, exp)}`;
  const owner = { userId: facts.user.id, sessionId: sid, sessionStart: st, exempt: isAdmin(facts.user) };
  return (chapter.playlist as string)
    .replace(KEY_URI_PLACEHOLDER, keyUri)
    .replaceAll(SEGMENT_BASE_PLACEHOLDER, `${base}/segments/${segmentToken(secret, chapter.id, owner)}`);
}

/**
 * The AES-128 key: only to the signed-in session the URL was issued to (Authorization and
 * X-Device-ID), else 403; and only while it may still see the file, else 404 as an unknown chapter.
 */
export async function chapterKey(
  ctx: Ctx,
  presenter: Presenter,
  chapterId: string,
  grant: PlaybackGrant,
): Promise<Buffer> {
  if (!presenter.token) throw new AppError('FORBIDDEN', NEEDS_SESSION.key);
  const { chapter } = await authenticateRequest(ctx, presenter, {
    alongside: (assertSamePresenter) => checkGrant(ctx, assertSamePresenter, chapterId, grant, 'key'),
    refused: streamRefused,
    onAuthFailure: forbidden,
  });
  if (!chapter.key) throw new AppError('CONFLICT', NOT_READY_MESSAGE);
  return chapter.key;
}

export type SegmentBytes = { kind: 'data'; data: Buffer } | { kind: 'file'; path: string; size: number };

/**
 * An encrypted segment; anyone with its unguessable URL may fetch it, as a CDN would. It counts for
 * the account of the session its token names (rip detection), wherever it is fetched from, and
 * waits as that account's audio is paced.
 */
export async function chapterSegment(ctx: Ctx, chapterId: string, token: string, index: number): Promise<SegmentBytes> {
  const id = parseId(chapterId, 'chapterId');
  const owner = segmentOwner(ctx.deps.config.secret, id, token);
  if (!owner) throw new AppError('NOT_FOUND', 'Segment not found');
  const segment = await ctx.em.findOne(ChapterSegment, { chapter: id, index }, { populate: ['data'] });
  if (!segment) throw new AppError('NOT_FOUND', 'Segment not found');
  const { userId, sessionId, sessionStart, exempt } = owner;
  const wait = meterSegment(
    ctx,
    { userId, exempt, credential: { kind: 'session', id: sessionId, start: sessionStart } },
    id,
    index,
    segment.duration,
  );
  if (wait > 0) await setTimeout(wait);
  if (segment.data) return { kind: 'data', data: Buffer.from(segment.data) };
  if (!segment.path) throw new AppError('NOT_FOUND', 'Segment not found');
  const path = resolveStoredPath(ctx.deps.config.dataDir, segment.path);
  const info = await stat(path).catch(() => null);
  if (!info) throw new AppError('NOT_FOUND', 'Segment not found');
  return { kind: 'file', path, size: info.size };
}
