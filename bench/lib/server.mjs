// Starts a server script as a child process on a loopback port, with the event-loop probe preloaded,
// so the load generator (this process) never shares an event loop with the server it measures.
import { spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const probe = pathToFileURL(fileURLToPath(new URL('./probe.mjs', import.meta.url))).href;
// Generous: a first start on a machine busy with other work can take a minute.
const START_LIMIT_MS = 120_000;
// Extra node options for the servers, e.g. BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

/** Resident memory of any process, from /proc (Linux), for children without the probe. */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * Runs `node [BENCH_SERVER_NODE_ARGS] --import probe.mjs <script>` with `env`, its output going to
 * `logFile`, waits for it to print its http:// address, and returns { url, pid, stats(reset), stop() }.
 * stats() asks the probe for event-loop delay and RSS.
 */
export async function startServer(script, env, name, logFile) {
  const child = spawn(process.execPath, [...serverNodeArgs, '--import', probe, script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      // Not left running behind a failed stage (it may still be writing its DATA_DIR).
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start within ${START_LIMIT_MS / 1000} s`));
    }, START_LIMIT_MS);
    child.stdout.on('data', (d) => {
      out += d;
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before listening:\n${stderr}`));
    });
  });

  let nextId = 0;
  const stats = (reset = false) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      const timer = setTimeout(() => reject(new Error(`${name} probe did not answer`)), 10_000);
      const onMessage = (message) => {
        if (message?.probe !== 'stats' || message.id !== id) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      child.send({ probe: reset ? 'reset' : 'read', id });
    });

  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.once('exit', (code) => {
        clearTimeout(kill);
        resolve(code);
      });
      child.kill('SIGTERM');
    });

  return { url, pid: child.pid, stats, stop, stderrTail: () => stderr };
}
