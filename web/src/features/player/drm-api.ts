// The byte-level calls of the secure player: REST /api/v1/drm and the chapter stream URL.
// Their payloads are the same objects the GraphQL schema describes, so the generated types apply.
import { REST_BASE, restFetch, restRequest } from '../../app/rest';
import type { ChapterStreamUrl, SignedUrlGrant, StreamSessionGrant } from '../../gql/graphql';

/** Signed seek and chapter URLs live 30 minutes (spec section 9). */
export const SIGNED_URL_LIFETIME_MS = 1_800_000;

async function postData<T>(path: string, body?: unknown): Promise<T> {
  const response = await restRequest(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await response.json()) as { data: T };
  return json.data;
}

export function createStreamSession(fileId: string): Promise<StreamSessionGrant> {
  return postData(`/drm/session/${encodeURIComponent(fileId)}`);
}

function streamPath(sessionToken: string): string {
  return `/drm/stream/${encodeURIComponent(sessionToken)}`;
}

/** What the audio element reads for a stream session (same origin: cookies go along). */
export function streamUrl(sessionToken: string): string {
  return `${REST_BASE}${streamPath(sessionToken)}`;
}

/** The status a HEAD of the stream answers (403 once the session has ended); null when unreachable. */
export async function checkStream(sessionToken: string): Promise<number | null> {
  const response = await restFetch(streamPath(sessionToken), { method: 'HEAD' }).catch(() => null);
  return response?.status ?? null;
}

export function createSignedUrl(fileId: string, startTime: number): Promise<SignedUrlGrant> {
  return postData(`/drm/signed-url/${encodeURIComponent(fileId)}`, {
    startTime,
    endTime: -1,
    expiresIn: SIGNED_URL_LIFETIME_MS,
  });
}

export function createChapterStreamUrl(fileId: string, chapterId: string): Promise<ChapterStreamUrl> {
  return postData(`/files/${encodeURIComponent(fileId)}/chapters/${encodeURIComponent(chapterId)}/stream-url`, {
    expiresIn: SIGNED_URL_LIFETIME_MS,
  });
}
