import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** How much of ffmpeg's error output a failure reason keeps. */
const STDERR_TAIL = 2000;

export interface FfmpegRunOptions {
  /** Stops it when aborted (the job was taken away or the app is stopping); the failure says why. */
  signal?: AbortSignal;
  /**
   * Given the seconds of output written so far, read from `-progress pipe:1` (the caller puts
   * those arguments first); ffmpeg reports about twice a second.
   */
  onProgress?: (outSeconds: number) => void;
}

/**
 * Runs ffmpeg to completion. A process that outlives `timeoutMs` is killed (SIGKILL: a hung
 * encoder may ignore SIGTERM) and the failure says so; a non-zero exit carries ffmpeg's last words.
 */
export function runFfmpeg(
  binary: string,
  args: readonly string[],
  timeoutMs: number,
  options: FfmpegRunOptions = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) return reject(new Error('ffmpeg was not started: the job was stopped'));
    const child = spawn(binary, args, { stdio: ['ignore', onProgress ? 'pipe' : 'ignore', 'pipe'] });
    let stderr = '';
    let stopped: 'timeout' | 'aborted' | null = null;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    if (onProgress && child.stdout) {
      createInterface({ input: child.stdout }).on('line', (line) => {
        // out_time_us (and the misnamed out_time_ms) count microseconds; N/A before the first frame.
        const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
        if (match) onProgress(Number(match[1]) / 1_000_000);
      });
    }
    const kill = (reason: 'timeout' | 'aborted') => {
      stopped ??= reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), timeoutMs);
    const onAbort = () => kill('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (err) => {
      settle();
      reject(new Error(`ffmpeg could not be started: ${err.message}`));
    });
    child.once('close', (code, exitSignal) => {
      settle();
      if (stopped === 'timeout')
        return reject(new Error(`ffmpeg did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`));
      if (stopped === 'aborted') return reject(new Error('ffmpeg was stopped: the job was stopped'));
      if (code === 0) return resolve();
      const lastLine = stderr.trim().split('\n').filter(Boolean).pop() ?? 'no output';
      reject(new Error(`ffmpeg failed (${exitSignal ? `signal ${exitSignal}` : `exit code ${code}`}): ${lastLine}`));
    });
  });
}
