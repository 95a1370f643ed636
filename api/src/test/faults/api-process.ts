import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('../../..', import.meta.url));
/** Its own output folder, so a build here never rewrites files another test is running from. */
const outDir = path.join(apiDir, 'dist', 'fault-build');

/** Compiles the API as `npm start` would, into a folder of its own. */
export function buildApi(): void {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json', '--outDir', outDir, '--sourceMap', 'false'], {
    cwd: apiDir,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`API build failed:\n${build.stdout}${build.stderr}`);
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stderr, to show when a test fails. */
  stderr(): string;
  /** Ends it with the signal and waits until it is gone. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `node main.js` as an operator would and waits for its "running at" line. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn('node', [path.join(outDir, 'main.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start in 90 s:\n${stderr}`)), 90_000);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      const match = /running at (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`API exited with ${code} before listening:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
