import { spawn } from 'node:child_process';

/** How much of ffmpeg's error output a failure reason keeps. */
const STDERR_TAIL = 2000;

/**
 * Runs ffmpeg to completion. A process that outlives `timeoutMs` is killed (SIGKILL: a hung
 * encoder may ignore SIGTERM) and the failure says so; a non-zero exit carries ffmpeg's last words.
 */
export function runFfmpeg(binary: string, args: readonly string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let timedOut = false;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`ffmpeg could not be started: ${err.message}`));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut)
        return reject(new Error(`ffmpeg did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`));
      if (code === 0) return resolve();
      const lastLine = stderr.trim().split('\n').filter(Boolean).pop() ?? 'no output';
      reject(new Error(`ffmpeg failed (${signal ? `signal ${signal}` : `exit code ${code}`}): ${lastLine}`));
    });
  });
}
