// Stage (d): one API process under a mixed load for a fixed time: listeners reading the audio at
// playback pace through stream sessions, GraphQL clients browsing, administrators uploading in
// chunks. Counts every response by class; memory at the start and the end from the server's probe.
import { performance } from 'node:perf_hooks';
import { LIBRARY_FIRST_PAGE, authHeaders, clientRequest, webOperation } from './graphql-ops.mjs';
import { eachLimited, percentile, round } from './load.mjs';
import { STREAM_BITRATE } from './seed.mjs';
import { uploadLoop } from './uploader.mjs';

/** Seconds of audio per range request: a player that keeps a few seconds buffered asks this often. */
const PACE_SECONDS = 4;
const RANGE_BYTES = (STREAM_BITRATE / 8) * PACE_SECONDS;
const THINK_MS = 1000;
const LATE_MS = 1000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function newTally() {
  return { latencies: [], s2xx: 0, s4xx: 0, s5xx: 0, network: 0, bytes: 0, late: 0 };
}

function count(tally, status, latency, bytes = 0) {
  tally.latencies.push(latency);
  tally.bytes += bytes;
  if (latency > LATE_MS) tally.late++;
  if (status >= 500) tally.s5xx++;
  else if (status >= 400) tally.s4xx++;
  else if (status >= 200) tally.s2xx++;
  else tally.network++;
}

/** One listener: a range of RANGE_BYTES every PACE_SECONDS from a random place, until `until`. */
async function listen(stream, size, until, tally) {
  await sleep(Math.random() * PACE_SECONDS * 1000);
  let offset = Math.floor(Math.random() * (size / 2));
  for (let next = performance.now(); next < until; next += PACE_SECONDS * 1000) {
    const t0 = performance.now();
    let status = 0;
    let bytes = 0;
    try {
      const res = await fetch(stream.url, {
        // The stream cookie the session was given, sent back as the player's audio element does.
        headers: { cookie: stream.cookie, range: `bytes=${offset}-${Math.min(offset + RANGE_BYTES, size) - 1}` },
        signal: globalThis.AbortSignal.timeout(30_000),
      });
      bytes = (await res.arrayBuffer()).byteLength;
      status = res.status;
    } catch {
      status = 0;
    }
    count(tally, status, performance.now() - t0, bytes);
    offset = offset + RANGE_BYTES >= size ? 0 : offset + RANGE_BYTES;
    await sleep(Math.max(0, next + PACE_SECONDS * 1000 - performance.now()));
  }
}

/**
 * One person browsing with the web client's own requests: a page of the library (the first, or
 * one the grid loads on scrolling), then a file on the player, which asks for the file and its
 * checkpoints at once; a pause; again, until `until`.
 */
async function browse(url, who, until, tally) {
  const [library, playerFile, checkpoints] = ['AudioFiles', 'PlayerFile', 'Checkpoints'].map(webOperation);
  const timed = async (operation, variables) => {
    const t0 = performance.now();
    const res = await clientRequest(url, operation, variables, who).catch(() => ({ status: 0, body: {} }));
    const internal = res.body.errors?.some((e) => e.extensions?.code === 'INTERNAL');
    count(tally, internal ? 500 : res.status, performance.now() - t0);
    return res.body.data;
  };
  while (performance.now() < until) {
    const offset = LIBRARY_FIRST_PAGE.limit * Math.floor(Math.random() * 3);
    const page = await timed(library, { ...LIBRARY_FIRST_PAGE, offset });
    const items = page?.audioFiles?.items ?? [];
    if (items.length > 0) {
      const id = items[Math.floor(Math.random() * items.length)].id;
      await Promise.all([timed(playerFile, { id }), timed(checkpoints, { fileId: id })]);
    }
    await sleep(THINK_MS);
  }
}

/** Opens one stream session per listener (setup, not timed): their stream URLs and stream cookies. */
export async function openStreams(url, listeners, fileIds) {
  const urls = [];
  await eachLimited(listeners, 10, async (who, i) => {
    const res = await fetch(`${url}/api/v1/drm/session/${fileIds[i % fileIds.length]}`, {
      method: 'POST',
      headers: authHeaders(who),
    });
    const body = await res.json();
    if (!body.success) throw new Error(`stream session refused: ${res.status} ${body.message}`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('stream_proof=')) ?? '';
    urls.push({ url: `${url}${body.data.streamUrl}`, cookie: cookie.split(';')[0] });
  });
  return urls;
}

export async function loadMixed({ server, streamUrls, size, browsers, uploaders, seconds }) {
  const start = await server.stats(true);
  let peakRss = start.rssBytes;
  const sampler = setInterval(() => {
    server.stats().then(
      (s) => (peakRss = Math.max(peakRss, s.rssBytes)),
      () => {},
    );
  }, 5000);
  const until = performance.now() + seconds * 1000;
  const streams = newTally();
  const browsing = newTally();
  const uploading = newTally();
  const t0 = performance.now();
  const [, , uploads] = await Promise.all([
    Promise.all(streamUrls.map((u) => listen(u, size, until, streams))),
    Promise.all(browsers.map((who) => browse(server.url, who, until, browsing))),
    Promise.all(
      uploaders.map((who) => uploadLoop(server.url, who, until, (status, ms) => count(uploading, status, ms))),
    ),
  ]);
  const elapsed = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const end = await server.stats();
  return {
    elapsed,
    listeners: streamUrls.length,
    browsers: browsers.length,
    streams,
    browsing,
    uploading,
    uploads: uploads.flat(),
    start,
    end,
    peakRss: Math.max(peakRss, end.rssBytes),
  };
}

/** The listeners alone against the baseline's plain range handler: the latency floor. */
export async function loadPlainStreams({ url, listeners, size, seconds }) {
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const streams = newTally();
  await Promise.all(Array.from({ length: listeners }, () => listen(`${url}/bytes`, size, until, streams)));
  return { ...streams, elapsed: (performance.now() - t0) / 1000 };
}

const mib = (bytes) => round(bytes / 1024 / 1024);

export function mixedSection(app, base) {
  const s = app.streams;
  const b = app.browsing;
  const u = app.uploading;
  const listeners = app.listeners;
  const uploaded = app.uploads.filter((x) => x.done);
  const uploadedBytes = uploaded.reduce((n, x) => n + x.bytes, 0);
  const fiveXX = s.s5xx + b.s5xx + u.s5xx;
  return {
    title: `Mixed load for ${Math.round(app.elapsed)} s on one process`,
    baselineLabel: `the same ${listeners} paced listeners alone against a bare node:http range handler reading the same file (${base.latencies.length} requests)`,
    figures: [
      {
        label: 'responses with status 5xx (all clients)',
        value: fiveXX,
        unit: 'responses',
        better: 'lower',
        aim: '0',
        met: fiveXX === 0,
      },
      {
        label: `stream range requests (${listeners} listeners, ${RANGE_BYTES / 1000} kB every ${PACE_SECONDS} s)`,
        value: round(s.latencies.length / app.elapsed),
        unit: 'req/s',
        baseline: round(base.latencies.length / base.elapsed),
        better: 'higher',
      },
      { label: 'stream bytes delivered', value: round(s.bytes / 1024 / app.elapsed), unit: 'KiB/s', better: 'higher' },
      {
        label: 'stream request p50',
        value: round(percentile(s.latencies, 50)),
        unit: 'ms',
        baseline: round(percentile(base.latencies, 50)),
        better: 'lower',
      },
      {
        label: 'stream request p99',
        value: round(percentile(s.latencies, 99)),
        unit: 'ms',
        baseline: round(percentile(base.latencies, 99)),
        better: 'lower',
      },
      {
        label: `stream requests slower than ${LATE_MS} ms`,
        value: s.late,
        unit: 'requests',
        baseline: base.late,
        better: 'lower',
      },
      {
        label: `GraphQL browsing requests (${app.browsers} clients, ${THINK_MS} ms think time)`,
        value: round(b.latencies.length / app.elapsed),
        unit: 'req/s',
        better: 'higher',
      },
      { label: 'GraphQL browsing p50', value: round(percentile(b.latencies, 50)), unit: 'ms', better: 'lower' },
      { label: 'GraphQL browsing p99', value: round(percentile(b.latencies, 99)), unit: 'ms', better: 'lower' },
      {
        label: `chunked uploads completed (${app.uploads.length} started by 2 uploaders)`,
        value: uploaded.length,
        unit: 'uploads',
        better: 'higher',
      },
      {
        label: 'chunked upload throughput',
        value: round(mib(uploadedBytes) / app.elapsed, 2),
        unit: 'MiB/s',
        better: 'higher',
      },
      { label: 'server RSS at start', value: mib(app.start.rssBytes), unit: 'MiB', better: 'lower' },
      {
        label: 'server RSS at end',
        value: mib(app.end.rssBytes),
        unit: 'MiB',
        baseline: mib(app.start.rssBytes),
        better: 'lower',
      },
      {
        label: 'server RSS peak (sampled every 5 s)',
        value: mib(app.peakRss),
        unit: 'MiB',
        baseline: mib(app.start.rssBytes),
        better: 'lower',
      },
      { label: 'event loop blocked, max', value: app.end.eventLoopDelayMs.max, unit: 'ms', better: 'lower' },
    ],
    notes: [
      `Responses by class: streams ${s.s2xx} 2xx / ${s.s4xx} 4xx / ${s.s5xx} 5xx / ${s.network} network errors; browsing ${b.s2xx} / ${b.s4xx} / ${b.s5xx} / ${b.network} (a GraphQL INTERNAL error counts as 5xx); upload requests ${u.s2xx} / ${u.s4xx} / ${u.s5xx} / ${u.network}.`,
      `Uploads: ${uploaded.length} of ${app.uploads.length} completed (an upload still running when the time is up is cancelled), ${mib(uploadedBytes)} MiB registered as files; failures: ${
        app.uploads
          .filter((x) => x.error)
          .map((x) => x.error)
          .join('; ') || 'none'
      }.`,
      `Heap used: ${mib(app.start.heapUsedBytes)} MiB at start, ${mib(app.end.heapUsedBytes)} MiB at end. RSS "baseline" here is the start value, so the ratio is end / start.`,
    ],
  };
}
