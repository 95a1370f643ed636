import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../../context.js';
import { AppError } from '../../errors.js';
import { parseId, parseInput } from '../../validation.js';
import { findVisibleFile } from '../access/visibility.js';
import { requireCaller, requireDeviceCaller } from '../../caller-policy.js';
import { Chapter, ChapterStatus } from '../chapters/chapter.entity.js';
import { resolveStoredPath } from '../files/storage-paths.js';
import { sessionFileFacts, streamTokenFacts, type FileFacts, type StreamTokenFacts } from './access-facts.js';
import { listenerFor, meterFor, type ByteTap } from './metering.js';
import { allowStream, streamRefused, type Presenter } from './stream-access.js';
import { authenticateRequest } from '../auth/authenticate-request.js';
import { assertStreamProof, grantStreamProof } from './stream-proof.js';
import { signedUrlSchema } from './stream.schemas.js';
import { StreamSession } from './stream-session.entity.js';
import { signParts, verifyParts } from '../../signing.js';
import { isLiveExpiry } from '../../http/url-signing.js';

const SIGNED_RANGE_PURPOSE = 'signed-range:v2';

export interface DrmStatus {
  fileId: string;
  chunkedStreaming: boolean;
  protected: boolean;
  duration: number;
  size: number;
  mimeType: string;
  readyChapters: number;
}

export interface StreamSessionGrant {
  sessionToken: string;
  duration: number;
  streamUrl: string;
  expiresAt: Date;
}

export interface SignedUrlGrant {
  signedUrl: string;
  expiresAt: Date;
}

/** A byte window of a stored audio file that a request may read right now. */
export interface AudioBytes {
  path: string;
  offset: number;
  length: number;
  contentType: string;
  /** Checks again, while the bytes are being sent, that the credential still holds; throws when not. */
  recheck: () => Promise<void>;
  /** Meters the bytes sent from a byte of the file on (rip detection). */
  tap: (fileOffset: number) => ByteTap;
}

/** Whether and how the caller can play a file. */
export async function drmStatus(ctx: Ctx, fileId: string): Promise<DrmStatus> {
  const caller = requireCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const readyChapters = await ctx.em.count(Chapter, { file, status: ChapterStatus.ready });
  return {
    fileId: file.id,
    chunkedStreaming: true,
    protected: true,
    duration: file.duration,
    size: file.size,
    mimeType: file.mimeType,
    readyChapters,
  };
}

export function hashStreamToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens a short-lived stream session bound to the caller, their device session and the file. */
export async function createStreamSession(ctx: Ctx, fileId: string): Promise<StreamSessionGrant> {
  const caller = requireDeviceCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const sessionToken = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ctx.deps.config.streamSessionTtlSeconds * 1000);
  // Expired rows of this device are of no further use; clearing them here keeps the table small.
  await ctx.em.nativeDelete(StreamSession, { deviceSession: caller.session, expiresAt: { $lte: new Date() } });
  ctx.em.create(StreamSession, {
    tokenHash: hashStreamToken(sessionToken),
    user: caller.user,
    deviceSession: caller.session,
    file,
    expiresAt,
  });
  await ctx.em.flush();
  grantStreamProof(ctx, caller.session);
  return { sessionToken, duration: file.duration, streamUrl: `/api/v1/drm/stream/${sessionToken}`, expiresAt };
}

/**
 * Where a stored file's bytes are and how many: the size its row took when it was stored (the
 * files never change), so a byte request costs no stat. A file gone from the disk is answered 404
 * when sendByteRange opens it.
 */
export function storedBytes(ctx: Ctx, file: Pick<FileFacts, 'storagePath' | 'size'>): { path: string; size: number } {
  return { path: resolveStoredPath(ctx.deps.config.dataDir, file.storagePath), size: file.size };
}

/** The whole file behind a stream token, after re-checking everything the session was bound to. */
export async function openStreamSession(ctx: Ctx, presenter: Presenter, token: string): Promise<AudioBytes> {
  return authenticateRequest(ctx, presenter, {
    refused: streamRefused,
    alongside: async (assertSamePresenter) => {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw streamRefused();
      const current = async () => {
        // Keyed by the token itself: a player's ranges then hash it only when the facts are read.
        const facts = await ctx.deps.accessFacts.streamTokens.read(token, () =>
          streamTokenFacts(ctx.em, hashStreamToken(token)),
        );
        if (!facts || facts.expiresAt.getTime() <= Date.now()) throw streamRefused();
        return facts;
      };
      // A token holds in the session it was issued in: not once that ended and the device signed in again.
      const issuedIn = (facts: StreamTokenFacts) =>
        facts.createdAt < facts.session.startedAt ? null : facts.session.startedAt.getTime();
      const facts = await current();
      await assertSamePresenter(facts);
      assertStreamProof(ctx, presenter, facts.session);
      // The token is this route's id: a file gone from view is answered as an unknown token, as a
      // deleted file's is (its token goes with it), and the player's new session answers 404.
      await allowStream(ctx, facts, issuedIn(facts), streamRefused);
      const recheck = async () => {
        const now = await current();
        await allowStream(ctx, now, issuedIn(now), streamRefused);
      };
      const bytes = storedBytes(ctx, facts.file);
      const tap = meterFor(ctx, listenerFor(ctx, facts), facts.file, bytes.size);
      return { path: bytes.path, offset: 0, length: bytes.size, contentType: facts.file.mimeType, recheck, tap };
    },
  });
}

interface SignedRangeParams {
  fileId: string;
  sessionId: string;
  /** The session's start (ms): the URL dies with the session, even if the device signs in again. */
  sessionStart: number;
  start: number;
  end: number;
  expires: number;
}

function signedRangeParts(p: SignedRangeParams): (string | number)[] {
  return [p.fileId, p.sessionId, p.sessionStart, p.start, p.end, p.expires];
}

/** A URL for the part of the file from startTime, for seeking; bound to the caller's device session. */
export async function createSignedUrl(ctx: Ctx, fileId: string, input: unknown): Promise<SignedUrlGrant> {
  const caller = requireDeviceCaller(ctx);
  const file = await findVisibleFile(ctx.em, caller, parseId(fileId, 'fileId'));
  const body = parseInput(signedUrlSchema, input ?? {});
  if (body.startTime >= file.duration)
    throw new AppError('BAD_USER_INPUT', "startTime must be within the file's duration");
  const params: SignedRangeParams = {
    fileId: file.id,
    sessionId: caller.session.id,
    sessionStart: caller.session.createdAt.getTime(),
    start: body.startTime,
    end: body.endTime === -1 ? -1 : Math.min(body.endTime, file.duration),
    expires: Date.now() + body.expiresIn,
  };
  grantStreamProof(ctx, caller.session);
  const query = new URLSearchParams({
    sid: params.sessionId,
    st: String(params.sessionStart),
    start: String(params.start),
    end: String(params.end),
    exp: String(params.expires),
    sig: signParts(ctx.deps.config.secret, SIGNED_RANGE_PURPOSE, signedRangeParts(params)),
  });
  return { signedUrl: `/api/v1/drm/signed/${file.id}?${query.toString()}`, expiresAt: new Date(params.expires) };
}

/** Byte offset of a time, assuming the constant bit rate the stored formats are read with. */
function byteAt(seconds: number, duration: number, size: number): number {
  return Math.min(size, Math.floor((seconds / duration) * size));
}

/** The window a signed URL names, once its signature, expiry and the session behind it check out. */
export async function openSignedUrl(
  ctx: Ctx,
  presenter: Presenter,
  fileId: string,
  query: {
    sid: string | null;
    st: number | null;
    start: number | null;
    end: number | null;
    exp: number | null;
    sig: string | null;
  },
): Promise<AudioBytes> {
  return authenticateRequest(ctx, presenter, {
    refused: streamRefused,
    alongside: async (assertSamePresenter) => {
      const { sid, st, start, end, exp } = query;
      if (!sid || st === null || start === null || end === null || exp === null) {
        throw new AppError('FORBIDDEN', 'Invalid signed URL');
      }
      const params: SignedRangeParams = { fileId, sessionId: sid, sessionStart: st, start, end, expires: exp };
      if (!verifyParts(ctx.deps.config.secret, SIGNED_RANGE_PURPOSE, signedRangeParts(params), query.sig)) {
        throw new AppError('FORBIDDEN', 'Invalid signed URL');
      }
      if (!isLiveExpiry(exp)) throw new AppError('FORBIDDEN', 'Signed URL is no longer valid');
      const [sessionId, fileKey] = [parseId(sid, 'sid'), parseId(fileId, 'fileId')];
      const current = async () => {
        const facts = await ctx.deps.accessFacts.sessionFiles.read(`${sessionId}:${fileKey}`, () =>
          sessionFileFacts(ctx.em, sessionId, fileKey),
        );
        if (!facts) throw streamRefused();
        return facts;
      };
      const facts = await current();
      await assertSamePresenter(facts);
      assertStreamProof(ctx, presenter, facts.session);
      const file = await allowStream(ctx, facts, st);
      const recheck = async () => {
        // An open response ends with its URL, as one opened by a stream token does.
        if (!isLiveExpiry(exp)) throw streamRefused();
        await allowStream(ctx, await current(), st);
      };
      const bytes = storedBytes(ctx, file);
      const from = byteAt(start, file.duration, bytes.size);
      const to = end === -1 ? bytes.size : byteAt(end, file.duration, bytes.size);
      const tap = meterFor(ctx, listenerFor(ctx, facts), file, bytes.size);
      return {
        path: bytes.path,
        offset: from,
        length: Math.max(0, to - from),
        contentType: file.mimeType,
        recheck,
        tap,
      };
    },
  });
}
