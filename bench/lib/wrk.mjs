// Byte-serving load with wrk (C, epoll), which outruns any server here: a Node load generator tops
// out near 100 MB/s and would measure itself. Absent wrk, callers skip the byte figures with a note.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./ranges.lua', import.meta.url));
const run = promisify(execFile);

/** The wrk binary on PATH (WRK overrides), or null when it is not installed. */
export function findWrk() {
  const bin = process.env.WRK ?? 'wrk';
  const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return probe.error ? null : bin;
}

/**
 * `connections` keep-alive connections on one wrk thread (the server gets the other core) asking
 * for random `span`-byte ranges of a `size`-byte resource at `url` (span 0: the whole of it) for
 * `seconds`. Returns requests/s, MB/s (wrk counts header bytes too: about 0.5% of a 64 KiB answer),
 * latency p50/p99 in ms and the count of answers that were not 2xx/3xx or failed.
 */
export async function wrkLoad(wrk, { url, size, span, connections, seconds, headers = {} }) {
  const pairs = Object.entries(headers).flat();
  const { stdout } = await run(
    wrk,
    [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      '--timeout',
      '30s',
      '-s',
      script,
      url,
      '--',
      String(size),
      String(span),
      ...pairs,
    ],
    { maxBuffer: 1024 * 1024 },
  );
  const line = /WRK_JSON (\{.*\})/.exec(stdout);
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const r = JSON.parse(line[1]);
  const secs = r.durationUs / 1e6;
  return {
    requestsPerSecond: r.requests / secs,
    mbps: r.bytes / 1e6 / secs,
    p50: r.p50Us / 1000,
    p99: r.p99Us / 1000,
    failed: r.badStatus + r.socketErrors,
  };
}
