// `npm test`: every tier, in steps; the commands of a step run side by side, and the run stops
// after the first step that fails. The machine's two cores are the limit: every tier but the
// cluster's keeps both busy, so side by side pays only where one leaves them idle. The static checks
// are one core each (tsc, ESLint). The cluster tier (two replicas on PostgreSQL behind nginx, 99 s
// alone, half a core on average while its tests wait on jobs, timeouts and sockets) runs beside the
// API tier, whose last minutes also leave a core idle: the two took 403 s together against 453 s one
// after the other. The browser tier runs alone: beside the cluster tier it took 880 s, against 628 s
// alone and 99 s for the cluster, the two then slowing each other's waits.
// The output of commands run side by side is printed whole as each ends, never interleaved; a
// summary of each step's seconds ends the run.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const STEPS = [
  ['typecheck:api', 'typecheck:web', 'lint', 'format:check'],
  ['build'],
  ['lint:openapi', 'codegen:check', 'test:web'],
  ['test:api', 'test:cluster'],
  ['test:browser'],
];

/** Runs `npm run <script>`; alone it writes to the terminal, beside others into a buffer. */
function run(script, alone) {
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', script], {
    stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') },
  });
  const output = [];
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      if (!alone) {
        process.stdout.write(
          `\n── npm run ${script} (${seconds.toFixed(0)} s, ${code === 0 ? 'passed' : 'FAILED'}) ──\n`,
        );
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ script, ok: code === 0, code: code ?? signal, seconds });
    });
  });
}

const started = performance.now();
const summary = [];
let failed = null;
for (const step of STEPS) {
  const stepStarted = performance.now();
  if (step.length > 1) console.log(`\n▶ side by side: ${step.map((s) => `npm run ${s}`).join(', ')}`);
  const results = await Promise.all(step.map((script) => run(script, step.length === 1)));
  summary.push({ step: step.join(' + '), seconds: (performance.now() - stepStarted) / 1000, results });
  failed = results.find((r) => !r.ok);
  if (failed) break;
}

console.log('\nnpm test, seconds per step:');
for (const { step, seconds, results } of summary) {
  const parts = results.length > 1 ? ` (${results.map((r) => `${r.script} ${r.seconds.toFixed(0)}`).join(', ')})` : '';
  console.log(`  ${seconds.toFixed(0).padStart(5)}  ${step}${parts}`);
}
console.log(`  ${((performance.now() - started) / 1000).toFixed(0).padStart(5)}  in all`);
if (failed) {
  console.error(`\nnpm run ${failed.script} failed (${failed.code})`);
  process.exit(1);
}
