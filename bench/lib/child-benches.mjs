// Runs the other benchmark scripts (`bench:<name>` in the root package.json, e.g. bench:upload and
// bench:stream) one at a time under the contract in bench/README.md, and turns what they leave into
// report sections: their --json figures, or their printed output when they do not write the file.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './paths.mjs';

/** `bench:<name>` scripts; one ending in `node bench/x.mjs` runs directly, the API being built already. */
export function childBenches() {
  const scripts = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).scripts ?? {};
  return Object.entries(scripts)
    .filter(([name]) => name.startsWith('bench:'))
    .map(([name, command]) => {
      const direct = /(?:^|&&\s*)node\s+(bench\/[\w./-]+\.m?js)\s*$/.exec(command);
      return {
        name,
        argv: direct ? [process.execPath, direct[1]] : ['npm', 'run', '--silent', name, '--'],
      };
    });
}

/** Signals the script's process group; it may have ended already. */
function stopGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function run(argv, jsonFile, limitMs) {
  return new Promise((resolve) => {
    // Own process group, so a script that overruns can be stopped with everything it started.
    const child = spawn(argv[0], [...argv.slice(1), '--json', jsonFile], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_TIME_LIMIT_SECONDS: String(Math.floor(limitMs / 1000)) },
    });
    let output = '';
    const keep = (d) => {
      output = (output + d).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid, 'SIGTERM');
      setTimeout(() => stopGroup(child.pid, 'SIGKILL'), 10_000).unref();
    }, limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, timedOut });
    });
  });
}

/** Runs one script with `limitMs` to finish (also passed to it as BENCH_TIME_LIMIT_SECONDS). */
export async function runChildBench(bench, outDir, log, limitMs) {
  const jsonFile = path.join(outDir, `${bench.name.replace(':', '-')}.json`);
  rmSync(jsonFile, { force: true });
  const started = Date.now();
  const { code, output, timedOut } = await run(bench.argv, jsonFile, limitMs);
  const seconds = Math.round((Date.now() - started) / 1000);
  log(`  ${bench.name}: exit ${code} after ${seconds} s${timedOut ? ' (time limit)' : ''}`);
  const title = `\`npm run ${bench.name}\``;
  if (timedOut)
    return {
      title,
      error: `stopped at its time limit of ${Math.round(limitMs / 1000)} s (BENCH_TIME_LIMIT_SECONDS)`,
      output,
    };
  if (existsSync(jsonFile)) {
    try {
      const result = JSON.parse(readFileSync(jsonFile, 'utf8'));
      return {
        ...result,
        title: `${result.title ?? bench.name} (${title})`,
        notes: [...(result.notes ?? []), `Took ${seconds} s, exit code ${code}.`],
      };
    } catch (err) {
      return { title, error: `its --json file is not valid JSON (${err.message})`, output };
    }
  }
  return {
    title,
    figures: [],
    notes: [
      `This script does not write --json figures yet (contract: bench/README.md), so its printed output follows as is. Exit code ${code}, ${seconds} s.`,
    ],
    output,
    ...(code === 0 ? {} : { error: `exit code ${code}` }),
  };
}
