// The build in three steps (the API, the embedded database's template, the web app), each redone
// only when its inputs changed, so that `npm start` on a built tree starts the server at once.
//
//   node scripts/build.mjs [api] [web]   builds what is stale (both when none is named)
//   node scripts/build.mjs --force       builds everything (`npm run build`)
//   node scripts/build.mjs --check api   builds nothing; fails naming what is stale
//
// A step's stamp (.build/<step>.json) holds a hash of its inputs' contents, taken before it ran,
// and the modification time of the output it left. A build made some other way (`npm run build
// -w api`, a bare tsc) changes that time, so the stamp is no longer trusted. Each tool's output
// goes to .build/<step>.log; the terminal gets one line per step, and the log's tail on failure.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampDir = path.join(root, '.build');
const at = (file) => path.join(root, file);
const readJson = (file) => JSON.parse(readFileSync(at(file), 'utf8'));

/** Every file under `dir` (relative to the root) that `skip` does not rule out. */
function filesUnder(dir, skip = () => false) {
  if (!existsSync(at(dir))) return [];
  return readdirSync(at(dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !skip(file));
}

// The files tsc leaves out of the server (tests), as tsconfig.build.json says: editing a test
// does not make the API stale.
const apiExcluded = readJson('api/tsconfig.build.json').exclude.map((pattern) => `api/${pattern}`);
const outsideApiBuild = (file) =>
  apiExcluded.some((p) => path.matchesGlob(file, p) || path.matchesGlob(file, `${p}/**`));
const isTest = (file) => /\.test\.tsx?$/.test(file);
const shared = ['tsconfig.base.json', 'package-lock.json'];
const bin = (file) => at(`node_modules/${file}`);

const steps = {
  api: {
    what: 'the API',
    inputs: () => [
      ...filesUnder('api/src', outsideApiBuild),
      ...['api/tsconfig.json', 'api/tsconfig.build.json', 'api/package.json'],
      ...shared,
    ],
    output: 'api/dist/main.js',
    run: [bin('typescript/bin/tsc'), '-p', 'api/tsconfig.build.json'],
  },
  // What make-embedded-template.ts itself checks: the migrations, the PGlite version and the
  // pg-boss version (the job queue's tables are in it too). The entities do not enter the template;
  // only the migrations made from them do.
  'db-template': {
    what: 'the database template',
    inputs: () => [
      ...filesUnder('api/src/db/migrations'),
      'api/src/db/job-schema.ts',
      'node_modules/@electric-sql/pglite/package.json',
      'node_modules/pg-boss/package.json',
    ],
    output: 'api/dist/db/pgdata-template.json',
    run: ['api/dist/db/make-embedded-template.js'],
  },
  // Vite bundles web/src from index.html, with the plugins in web/build; the GraphQL documents and
  // their generated types are in web/src.
  web: {
    what: 'the web app',
    inputs: () => [
      ...filesUnder('web/src', isTest),
      ...filesUnder('web/public'),
      ...filesUnder('web/build'),
      ...['web/index.html', 'web/vite.config.ts', 'web/tsconfig.json', 'web/package.json'],
      ...shared,
    ],
    output: 'web/dist/index.html',
    run: [bin('vite/bin/vite.js'), 'build'],
    cwd: 'web',
  },
};
/** The steps each target needs, in order: the template is made by the compiled API. */
const targets = { api: ['api', 'db-template'], web: ['web'] };

function inputsHash(step) {
  const hash = createHash('sha256');
  for (const file of [...new Set(step.inputs())].sort()) {
    hash.update(`${file}\0`);
    hash.update(existsSync(at(file)) ? readFileSync(at(file)) : '(missing)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

const outputTime = (step) => (existsSync(at(step.output)) ? statSync(at(step.output)).mtimeMs : null);
const stampFile = (name) => path.join(stampDir, `${name}.json`);

function isFresh(name, hash) {
  if (!existsSync(stampFile(name))) return false;
  const stamp = JSON.parse(readFileSync(stampFile(name), 'utf8'));
  return stamp.inputs === hash && stamp.output === outputTime(steps[name]);
}

/** The steps of `names` (targets) in build order. */
function stepsOf(names) {
  return Object.keys(steps).filter((step) => names.some((target) => targets[target].includes(step)));
}

/** The steps of `names` that are not built, or not from their current inputs. */
const staleSteps = (names) => stepsOf(names).filter((name) => !isFresh(name, inputsHash(steps[name])));

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * Runs one step with its output in its log; Ctrl-C or a SIGTERM stops the tool too. The steps of
 * one build share one line of the terminal: "Building the API (19.0 s), the web app (24.8 s)".
 */
async function runStep(name, hash, first) {
  const step = steps[name];
  const log = path.join(stampDir, `${name}.log`);
  const fd = openSync(log, 'w');
  const started = Date.now();
  process.stdout.write(`${first ? 'Building ' : ', '}${step.what}… `);
  const child = spawn(process.execPath, step.run, {
    cwd: at(step.cwd ?? '.'),
    stdio: ['ignore', fd, fd],
    env: { ...process.env, NO_COLOR: '1' },
  });
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...end) => resolve(end)));
  process.off('SIGINT', forward).off('SIGTERM', forward);
  closeSync(fd);
  if (signal) {
    process.stdout.write('stopped\n');
    process.exit(128 + constants.signals[signal]);
  }
  if (code !== 0) {
    const tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-30).join('\n');
    process.stdout.write(`failed after ${seconds(started)}\n`);
    process.stderr.write(
      `${tail}\n\nBuilding ${step.what} failed (exit code ${code}): the whole log is ${path.relative(process.cwd(), log)}\n`,
    );
    process.exit(1);
  }
  writeFileSync(stampFile(name), JSON.stringify({ inputs: hash, output: outputTime(step) }) + '\n');
  process.stdout.write(`(${seconds(started)})`);
}

/** Builds the stale steps of `names` (all of them with `force`); exits the process on a failure. */
export async function build(names = Object.keys(targets), { force = false } = {}) {
  mkdirSync(stampDir, { recursive: true });
  // One step at a time, each checked just before it runs: the API's build may make the template's
  // output (in api/dist) appear or change.
  let built = 0;
  for (const name of stepsOf(names)) {
    const hash = inputsHash(steps[name]);
    if (force || !isFresh(name, hash)) await runStep(name, hash, built++ === 0);
  }
  if (built > 0) process.stdout.write('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const names = args.filter((arg) => !arg.startsWith('--'));
  const unknown = names.filter((name) => !(name in targets));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown target ${unknown.join(', ')}: the targets are ${Object.keys(targets).join(', ')}\n`);
    process.exit(2);
  }
  const chosen = names.length > 0 ? names : Object.keys(targets);
  if (args.includes('--check')) {
    const stale = staleSteps(chosen);
    if (stale.length > 0) {
      process.stderr.write(`the build of ${stale.join(', ')} is missing or older than its sources\n`);
      process.exit(1);
    }
  } else {
    await build(chosen, { force: args.includes('--force') });
  }
}
