// Load generators: autocannon for fixed requests at full speed, and a bounded closed loop for
// requests that differ per client (logins, browsing), with latency percentiles from raw samples.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

/** Percentile of an unsorted array of numbers (nearest rank); 0 when empty. */
export function percentile(values, p) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Runs autocannon for `seconds` at `connections` concurrent clients after a short warm-up, and
 * counts responses whose body reports GraphQL errors (they arrive as 200).
 */
export async function hammer({ url, method = 'POST', headers, body, connections, seconds, warmupSeconds = 1 }) {
  // A generous timeout: on a busy machine a slow answer should count as slow, not as lost.
  const options = { url, method, headers, body, connections, pipelining: 1, timeout: 30 };
  // autocannon abandons requests in flight when time is up; the server still works through them, so
  // wait for one more answer before measuring, or the next run would pay for this one's backlog.
  const drain = () =>
    fetch(url, { method, headers, body, signal: globalThis.AbortSignal.timeout(120_000) }).then(
      (r) => r.text(),
      () => {},
    );
  if (warmupSeconds > 0) {
    await autocannon({ ...options, duration: warmupSeconds });
    await drain();
  }
  let bodyErrors = 0;
  const result = await autocannon({
    ...options,
    duration: seconds,
    requests: [
      {
        onResponse: (_status, responseBody) => {
          if (responseBody.includes('"errors"')) bodyErrors++;
        },
      },
    ],
  });
  await drain();
  return {
    connections,
    requestsPerSecond: round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bodyErrors,
  };
}

/**
 * `concurrency` workers each run `task(worker)` back to back until `seconds` have passed; a task
 * resolves truthy on success. Returns latencies (ms), counts and the achieved rate.
 */
export async function closedLoop({ concurrency, seconds, task }) {
  const deadline = performance.now() + seconds * 1000;
  const latencies = [];
  let failures = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await task(worker).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return {
    count: latencies.length,
    failures,
    perSecond: round(latencies.length / elapsed),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
  };
}

/** Runs `task(item, index)` over `items` with at most `limit` in flight. */
export async function eachLimited(items, limit, task) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await task(items[i], i);
      }
    }),
  );
}
