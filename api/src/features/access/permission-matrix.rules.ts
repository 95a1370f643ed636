import { expect } from 'vitest';
import type { Session } from '../../test/factories.js';

/**
 * The rules of the permission matrix (permission-matrix.test.ts): who each kind of caller is, what
 * each rule lets them do, and the operations whose permissions are walked in their own feature's tests.
 */

export const personas = [
  'anonymous',
  'noGrant',
  'expiredGrant',
  'revokedGrant',
  'liveGrant',
  'locked',
  'admin',
] as const;
export type Persona = (typeof personas)[number];
export type Rule = 'admin' | 'visibleFile' | 'signedIn' | 'owner' | 'public';
export type Outcome = { code: string; text: string };

export const expected: Record<Rule, Record<Persona, string>> = {
  admin: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'FORBIDDEN',
    expiredGrant: 'FORBIDDEN',
    revokedGrant: 'FORBIDDEN',
    liveGrant: 'FORBIDDEN',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  visibleFile: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'NOT_FOUND',
    expiredGrant: 'NOT_FOUND',
    revokedGrant: 'NOT_FOUND',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  signedIn: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'ok',
    expiredGrant: 'ok',
    revokedGrant: 'ok',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
  // Only the owner (the live-grant user here) may delete a checkpoint; not even an administrator,
  // and to everyone else it answers as an unknown id.
  owner: {
    anonymous: 'UNAUTHENTICATED',
    noGrant: 'NOT_FOUND',
    expiredGrant: 'NOT_FOUND',
    revokedGrant: 'NOT_FOUND',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'NOT_FOUND',
  },
  // A locked account's token is refused even where no sign-in is needed.
  public: {
    anonymous: 'ok',
    noGrant: 'ok',
    expiredGrant: 'ok',
    revokedGrant: 'ok',
    liveGrant: 'ok',
    locked: 'UNAUTHENTICATED',
    admin: 'ok',
  },
};

const identity = 'identity and devices: src/features/auth/auth.test.ts';
const uploads = 'uploads: src/features/uploads/uploads.test.ts, chunked-upload.test.ts, chunk-caller.test.ts';
const chapters = 'chapters: src/features/chapters/chapter.test.ts';
const streaming = 'DRM streaming: src/features/playback/stream.test.ts';
const apiKeys = 'API keys: src/features/api-keys/api-keys.test.ts';
const keyAudio = "an API key's audio (device sessions are refused): src/features/playback/key-audio.test.ts";
const ripDetection = 'rip detection: src/features/rip-detection/rip-detection.test.ts';
/** Playback routes that need a ready chapter, an issued URL or an API key: walked as a file goes out of view. */
const hidden = 'and once the file is out of view: src/features/access/existence-hiding.test.ts';
/** Operations of other features, each with the test that walks its permissions. */
export const coveredElsewhere: Record<string, string> = {
  'query apiKeys': apiKeys,
  'query apiKeyScopes': apiKeys,
  'mutation createApiKey': apiKeys,
  'mutation revokeApiKey': apiKeys,
  'GET /admin/api-keys': apiKeys,
  'POST /admin/api-keys': apiKeys,
  'DELETE /admin/api-keys/:id': apiKeys,
  'query me': identity,
  'mutation login': identity,
  'mutation register': identity,
  'mutation logout': identity,
  'mutation updateMyDetails': identity,
  'query myDevices': identity,
  'mutation deactivateDevice': identity,
  'mutation deactivateOtherDevices': identity,
  'subscription securityEvents': identity,
  'GET /auth/me': identity,
  'POST /auth/login': identity,
  'POST /auth/logout': identity,
  'POST /auth/register': identity,
  'PUT /auth/updatedetails': identity,
  'GET /devices': identity,
  'DELETE /devices/others': identity,
  'DELETE /devices/:deviceId': identity,
  'mutation initUpload': uploads,
  'mutation finalizeUpload': uploads,
  'mutation cancelUpload': uploads,
  'query uploadSession': uploads,
  'query myUploadSessions': uploads,
  'POST /files': uploads,
  'POST /audio/upload/init': uploads,
  'POST /audio/upload/chunk': uploads,
  'GET /audio/upload/status/:uploadId': uploads,
  'POST /audio/upload/finalize/:uploadId': uploads,
  'DELETE /audio/upload/cancel/:uploadId': uploads,
  'mutation createChapters': chapters,
  'mutation loadSampleChapters': chapters,
  'mutation updateChapter': chapters,
  'mutation deleteChapter': chapters,
  'mutation finalizeChapters': chapters,
  'mutation chapterStreamUrl': `${chapters}, ${hidden}`,
  'subscription chapterEvents': chapters,
  'subscription ripAlerts': ripDetection,
  'POST /files/:id/chapters': chapters,
  'POST /files/:id/chapters/sample': chapters,
  'POST /files/:id/chapters/finalize': chapters,
  'PUT /files/:id/chapters/:chapterId': chapters,
  'DELETE /files/:id/chapters/:chapterId': chapters,
  'POST /files/:id/chapters/:chapterId/stream-url': `${chapters}, ${hidden}`,
  'GET /chapters/:chapterId/playlist.m3u8': `${chapters}, ${hidden}`,
  'GET /chapters/:chapterId/key': `${chapters}, ${hidden}`,
  'GET /chapters/:chapterId/segments/:token/:segment': chapters,
  'GET /drm/stream/:token': `${streaming}, ${hidden}`,
  'HEAD /drm/stream/:token': `${streaming}, ${hidden}`,
  'GET /drm/signed/:fileId': `${streaming}, ${hidden}`,
  'HEAD /drm/signed/:fileId': `${streaming}, ${hidden}`,
  'GET /files/:id/audio': `${keyAudio}, ${hidden}`,
  'HEAD /files/:id/audio': `${keyAudio}, ${hidden}`,
};

export interface Case {
  rule: Rule;
  run(s: Session | null): Promise<Outcome>;
  /** What the answer must show when it succeeds. */
  check?(persona: Persona, outcome: Outcome): void;
}

/** What the cases need from the running test app; filled in before the first case runs. */
export interface MatrixWorld {
  /**
   * A private file with a cover: live grant for liveGrant and locked, an expired one for
   * expiredGrant, a revoked one (canView false) for revokedGrant.
   */
  fileId: string;
  liveUserId: string;
  /** The administrator's session, for a case that first sets something up. */
  admin(): Session;
  rest(method: string, path: string, body: unknown, s: Session | null): Promise<Outcome>;
  gql(query: string, variables: Record<string, unknown>, s: Session | null): Promise<Outcome>;
  fresh: {
    file(): Promise<string>;
    user(): Promise<string>;
    grant(): Promise<string>;
    /** A checkpoint of the live-grant user, to be deleted. */
    checkpoint(): Promise<string>;
    session(): Promise<Session>;
    email(): string;
  };
}

/** Whether the private test file appears in a list: only for the live grant and the administrator. */
export const listsTheFileWhenVisible = (w: MatrixWorld) => (persona: Persona, outcome: Outcome) => {
  expect(outcome.text.includes(w.fileId), `${persona} list`).toBe(persona === 'liveGrant' || persona === 'admin');
};
