// A chunked uploader as the web client behaves (init, 5 MiB chunks, finalize), uploading one WAV
// after another until a deadline. Each upload changes a few samples so no two share a hash.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { authHeaders } from './graphql-ops.mjs';
import { wavHeader } from './wav.mjs';

const CHUNK = 5 * 1024 * 1024;
const WAV_BYTES = 12 * 1024 * 1024;

/** 16-bit mono 44.1 kHz PCM tone with a RIFF header: real audio the server's probe accepts. */
function toneWav(bytes) {
  const wav = Buffer.alloc(bytes);
  wavHeader(bytes - 44, 1).copy(wav);
  for (let i = 44; i + 1 < bytes; i += 2) wav.writeInt16LE(Math.round(8000 * Math.sin(((i - 44) / 2) * 0.0627)), i);
  return wav;
}

const template = toneWav(WAV_BYTES);

async function call(url, route, init, onRequest) {
  const t0 = performance.now();
  let status = 0;
  try {
    const res = await fetch(`${url}/api/v1${route}`, { ...init, signal: globalThis.AbortSignal.timeout(60_000) });
    status = res.status;
    const body = await res.json();
    if (!body.success) throw new Error(`${route.split('/').slice(0, 4).join('/')}: ${res.status} ${body.message}`);
    return body;
  } finally {
    onRequest(status, performance.now() - t0);
  }
}

/**
 * Uploads until `until` (performance.now() time); an upload still running then is cancelled.
 * `onRequest(status, ms)` sees every request. Returns [{ done, bytes, seconds, error }].
 */
export async function uploadLoop(url, who, until, onRequest) {
  const uploads = [];
  const headers = authHeaders(who);
  for (let n = 0; performance.now() < until; n++) {
    const bytes = Buffer.from(template);
    randomBytes(32).copy(bytes, 4096);
    const fileHash = createHash('sha256').update(bytes).digest('hex');
    const totalChunks = Math.ceil(bytes.length / CHUNK);
    const fileName = `bench-upload-${who.deviceId}-${n}.wav`;
    const t0 = performance.now();
    let uploadId = null;
    try {
      const init = await call(
        url,
        '/audio/upload/init',
        {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ fileName, fileSize: bytes.length, totalChunks, fileHash, mimeType: 'audio/wav' }),
        },
        onRequest,
      );
      uploadId = init.uploadId;
      for (let i = 0; i < totalChunks; i++) {
        if (performance.now() >= until) throw new Error('time up');
        const form = new globalThis.FormData();
        form.append('chunk', new globalThis.Blob([bytes.subarray(i * CHUNK, (i + 1) * CHUNK)]), 'blob');
        await call(
          url,
          '/audio/upload/chunk',
          {
            method: 'POST',
            headers: {
              ...headers,
              'x-upload-id': uploadId,
              'x-chunk-index': String(i),
              'x-total-chunks': String(totalChunks),
              'x-file-name': encodeURIComponent(fileName),
              'x-file-size': String(bytes.length),
            },
            body: form,
          },
          onRequest,
        );
      }
      const form = new globalThis.FormData();
      form.append('title', `Bench upload ${n}`);
      await call(url, `/audio/upload/finalize/${uploadId}`, { method: 'POST', headers, body: form }, onRequest);
      uploads.push({ done: true, bytes: bytes.length, seconds: (performance.now() - t0) / 1000 });
    } catch (err) {
      const timeUp = err.message === 'time up';
      if (uploadId)
        await call(url, `/audio/upload/cancel/${uploadId}`, { method: 'DELETE', headers }, onRequest).catch(() => {});
      uploads.push({
        done: false,
        bytes: 0,
        seconds: (performance.now() - t0) / 1000,
        error: timeUp ? null : err.message,
      });
      if (!timeUp) await new Promise((r) => setTimeout(r, 1000));
    }
  }
  return uploads;
}
