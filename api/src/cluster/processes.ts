import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A child process of the tier, its output kept in `logFile` for a post-mortem. */
export interface Started {
  name: string;
  child: ChildProcess;
  logFile: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export function startProcess(
  name: string,
  command: string,
  args: string[],
  // 'a' for a process started again, so its log follows the one before.
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; flags?: 'w' | 'a' },
): Started {
  const log = createWriteStream(options.logFile, { flags: options.flags ?? 'w' });
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return { name, child, logFile: options.logFile };
}

/** The end of a process's log, for an error message. */
export function logTail(started: Pick<Started, 'logFile'>, lines = 20): string {
  try {
    return readFileSync(started.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Polls `url` until it answers 200. Generous by default: on a busy two-core machine the first
 * replica's start (migrations included) has taken over a minute.
 */
export async function waitUntilHealthy(started: Started, url: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(
        `${started.name} exited during start-up (${started.child.exitCode ?? started.child.signalCode}); ` +
          `${started.logFile} ends:\n${logTail(started)}`,
      );
    }
    const healthy = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(
    `${started.name} did not answer ${url} within ${timeoutMs / 1000} s; ${started.logFile} ends:\n${logTail(started)}`,
  );
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
export async function stopProcess(started: Started | undefined, graceMs = 15_000): Promise<void> {
  const child = started?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
