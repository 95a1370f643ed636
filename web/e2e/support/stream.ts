import { baseUrl } from './browser';
import { rest, type ApiSession } from './api';

/**
 * Pulls a file's audio as a ripping script does: opens a stream session as the player would, then
 * reads the whole file as fast as the server sends it, for at most `timeoutMs`. Answers the status
 * and how many bytes arrived, and whether the file ended in that time.
 */
export async function pullWholeFile(
  session: ApiSession,
  fileId: string,
  timeoutMs: number,
): Promise<{ status: number; received: number; ended: boolean }> {
  const opened = await rest<{ data: { streamUrl: string } }>('POST', `/drm/session/${fileId}`, undefined, session);
  if (opened.status !== 200) throw new Error(`stream session: ${opened.status} ${JSON.stringify(opened.body)}`);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  // The bearer token and device id stand in for the stream cookie a browser would carry.
  const res = await fetch(`${baseUrl()}${opened.body.data.streamUrl}`, {
    headers: { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId },
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
