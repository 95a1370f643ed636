import { baseUrl } from './browser';
import { rest, type ApiSession } from './api';

/**
 * Pulls a file's audio as a ripping script does: opens a stream session as the player would, then
 * reads the file as sixteen ranges at once (as a download accelerator does), each as fast as the
 * server sends it, for at most `timeoutMs`. Answers how many bytes arrived and whether all did.
 */
export async function pullWholeFile(
  session: ApiSession,
  fileId: string,
  size: number,
  timeoutMs: number,
): Promise<{ statuses: number[]; received: number; ended: boolean }> {
  const opened = await rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${fileId}`, undefined, session);
  if (opened.status !== 200) throw new Error(`stream session: ${opened.status} ${JSON.stringify(opened.body)}`);
  const piece = Math.ceil(size / 16);
  const reads = await Promise.all(
    Array.from({ length: 16 }, (_, k) =>
      readRange(session, opened.body.data.streamUrl, k * piece, Math.min(size, (k + 1) * piece) - 1, timeoutMs),
    ),
  );
  return {
    statuses: reads.map((r) => r.status),
    received: reads.reduce((sum, r) => sum + r.received, 0),
    ended: reads.every((r) => r.ended),
  };
}

async function readRange(session: ApiSession, url: string, from: number, to: number, timeoutMs: number) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  // The bearer token and device id stand in for the stream cookie a browser would carry.
  const res = await fetch(`${baseUrl()}${url}`, {
    headers: {
      authorization: `Bearer ${session.token}`,
      'x-device-id': session.deviceId,
      range: `bytes=${from}-${to}`,
    },
    signal: stop.signal,
  });
  let received = 0;
  try {
    const reader = res.body?.getReader();
    for (;;) {
      const read = await reader?.read();
      if (!read || read.done) return { status: res.status, received, ended: true };
      received += read.value.byteLength;
    }
  } catch (err) {
    if (!stop.signal.aborted) throw err;
    return { status: res.status, received, ended: false };
  } finally {
    clearTimeout(timer);
  }
}
