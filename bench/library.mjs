// The library at scale: one user with 7 grants and 3 public files in a library of 10, 10,000 and
// 100,000 files (the others private, each granted to one of 50 other users), seeded with SQL. At
// each size, the web client's first library page (the AudioFiles typed document of
// web/src/gql/graphql.ts, as LibraryPage sends it) over HTTP beside a Me request (the control for
// the machine's load), and the page and
// count statements the app sent for it, beside the statements it sent before it read from the
// caller's grants (OLD_* below: the condition as of 8a5e11d, in the same order), on the same
// connection, alternating, in one run.
// Run with `npm run bench:library` (builds the API first). Contract (bench/README.md): `--json
// <file>` writes the figures. Knobs: BENCH_LIBRARY_SIZES (default 10,10000,100000),
// BENCH_LIBRARY_RUNS (default 50), BENCH_DATABASE_URL or DATABASE_URL (a temporary database on that
// server; default the embedded PGlite, as `npm start`).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openBenchDatabase } from './lib/database.mjs';
import { LIBRARY_FIRST_PAGE, clientBody, clientRequest, webOperation } from './lib/graphql-ops.mjs';
import { dist } from './lib/paths.mjs';
import { captureSql } from './lib/sql-capture.mjs';

const { createApp } = await import(dist('compose/app.js'));
const { loadConfig } = await import(dist('config.js'));
const { createLogger } = await import(dist('logger.js'));
const { signAccessToken } = await import(dist('features/auth/tokens.js'));
const { DeviceSession } = await import(dist('features/auth/device-session.entity.js'));
const { User } = await import(dist('features/users/user.entity.js'));
const { FILE_COLUMNS } = await import(dist('features/files/files.service.js'));

const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const SIZES = (process.env.BENCH_LIBRARY_SIZES ?? '10,10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_LIBRARY_RUNS ?? 50);
/** Runs left out at each size; the first size's also warm the server's code (JIT, caches). */
const WARM_UP = 10;
const FIRST_WARM_UP = 200;
const GRANTS = 7;
const PUBLIC_FILES = 3;
const OTHER_USERS = 50;
/** The library's first page, as LibraryPage asks for it (web/src/features/library/library-lists.ts). */
const FIRST_PAGE = LIBRARY_FIRST_PAGE;

// The statements the library sent for its first page before this change: every file filtered by
// `is_public or id in (grants)` (visibleFilesCondition, the grid's order by title, search absent).
const OLD_VISIBLE = `((audio_files.is_public or audio_files.id in (
      select fa.file_id from file_access fa where fa.user_id = ? and fa.can_view and (fa.expires_at is null or fa.expires_at > ?))))`;
const OLD_PAGE = `select ${FILE_COLUMNS} from audio_files where ${OLD_VISIBLE} order by lower(audio_files.title) asc, audio_files.title asc, audio_files.id asc limit ? offset ?`;
const OLD_COUNT = `select count(*)::int as total from audio_files where ${OLD_VISIBLE}`;

const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-library-'));
const db = await openBenchDatabase(process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL);
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: path.join(work, 'data'),
  SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: 'bench-admin@bench.example',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp(config, { logger: createLogger('warn') });
const connection = app.orm.em.getConnection();
const sql = (text, params = []) => connection.execute(text, params);

/** The reader: an account with a device session and a token, as a signed-in browser has. */
async function makeReader() {
  const em = app.orm.em.fork();
  const user = em.create(User, { name: 'reader', email: 'reader@bench.example', passwordHash: 'x' });
  const session = em.create(DeviceSession, {
    user,
    deviceId: 'reader-device',
    deviceName: 'Benchmark client',
    deviceType: 'other',
    ipAddress: '127.0.0.1',
  });
  await em.flush();
  const token = await signAccessToken(config.secret, {
    userId: user.id,
    sessionId: session.id,
    sessionStart: session.createdAt.getTime(),
  });
  return { userId: user.id, token, deviceId: session.deviceId };
}

/** File number i's id, the same in both statements of addFiles. */
const FILE_ID = `md5('bench-file-' || i)::uuid`;

/**
 * Files numbered from+1 to `to`, created at random times over a year: the first GRANTS granted to
 * the reader, the next PUBLIC_FILES public, every later one private and granted to another user.
 */
async function addFiles(reader, from, to) {
  await sql(
    `insert into audio_files (id, title, description, filename, storage_path, size, duration, mime_type,
       is_public, created_at, updated_at)
     select ${FILE_ID}, 'Track ' || i, 'Description ' || i, 'track-' || i || '.mp3', 'audio/none.mp3',
       5000000, 60 + i % 3600, 'audio/mpeg', i > ? and i <= ?, now() - random() * interval '365 days', now()
     from generate_series(?::int, ?::int) i`,
    [GRANTS, GRANTS + PUBLIC_FILES, from + 1, to],
  );
  await sql(
    `insert into file_access (id, user_id, file_id, can_view, granted_at)
     select gen_random_uuid(), case when i <= ? then ?::uuid else o.ids[1 + i % ?] end, ${FILE_ID}, true, now()
     from generate_series(?::int, ?::int) i,
       (select array_agg(id order by email) as ids from users where email like 'other-%') o
     where i <= ? or i > ?`,
    [GRANTS, reader.userId, OTHER_USERS, from + 1, to, GRANTS, GRANTS + PUBLIC_FILES],
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** A plan in a line: each scan, its index, the rows it returned and the rows its filter removed. */
async function planSummary(text, params) {
  const [
    {
      'QUERY PLAN': [{ Plan: plan, 'Planning Time': planning, 'Execution Time': execution }],
    },
  ] = await sql(`explain (analyze, format json) ${text}`, params);
  const scans = [];
  const walk = (node) => {
    if (node['Relation Name']) {
      const removed = node['Rows Removed by Filter'] ? `, ${node['Rows Removed by Filter']} removed` : '';
      const rows = Math.round(node['Actual Rows'] * node['Actual Loops']);
      const via = node['Index Name'] ? ` using ${node['Index Name']}` : '';
      scans.push(`${node['Node Type']} on ${node['Relation Name']}${via} (${rows} rows${removed})`);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  return `${scans.join('; ')}; planned in ${planning.toFixed(2)} ms, ran in ${execution.toFixed(2)} ms`;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const loadAtStart = load();
const results = [];
const plans = [];
try {
  const reader = await makeReader();
  await sql(
    `insert into users (id, name, email, password_hash, created_at, updated_at)
     select gen_random_uuid(), 'other ' || i, 'other-' || i || '@bench.example', 'x', now(), now()
     from generate_series(1, ?::int) i`,
    [OTHER_USERS],
  );
  // The web client's own AudioFiles operation (its typed document), sent as its Apollo client does.
  const audioFiles = webOperation('AudioFiles');
  const me = webOperation('Me');
  const operation = { name: 'library', body: clientBody(audioFiles, FIRST_PAGE), who: reader };
  let files = 0;
  let newStatements = null;
  for (const size of SIZES) {
    const seedStarted = performance.now();
    await addFiles(reader, files, size);
    files = size;
    // What the app's statistics keeper (embedded) or autovacuum (PostgreSQL) does within a minute.
    await sql('analyze');
    const seedMs = performance.now() - seedStarted;
    if (!newStatements) {
      const captured = await captureSql(app, [operation]);
      newStatements = captured.library.statements.filter((s) => /\bunion all\b/i.test(s.sql));
      if (newStatements.length !== 2) throw new Error(`expected the page and the count, got ${newStatements.length}`);
    }
    const oldParams = [reader.userId, new Date()];
    const oldStatements = [
      { sql: OLD_PAGE, params: [...oldParams, FIRST_PAGE.limit, FIRST_PAGE.offset] },
      { sql: OLD_COUNT, params: oldParams },
    ];
    // As the app sends them: page and count at once (one after the other on the embedded database).
    const both = (statements) => Promise.all(statements.map((s) => sql(s.sql, s.params)));
    const request = async () => {
      const { status, body } = await clientRequest(app.url, audioFiles, FIRST_PAGE, reader);
      if (status !== 200 || body.errors) throw new Error(`AudioFiles: ${status} ${JSON.stringify(body.errors)}`);
      return body.data.audioFiles;
    };
    // The control: the signed-in client's smallest request (Me), through the same authentication
    // and GraphQL path, reading nothing that grows with the library. Timed beside each library
    // request, it carries the machine's load at that moment, so the library's growth with the
    // size is read against it, not against a 10-file figure taken minutes earlier.
    const control = async () => {
      const { status, body } = await clientRequest(app.url, me, {}, reader);
      if (status !== 200 || body.errors) throw new Error(`Me: ${status} ${JSON.stringify(body.errors)}`);
    };
    const answer = await request();
    const [{ total: oldTotal }] = await sql(OLD_COUNT, oldParams);
    if (answer.total !== GRANTS + PUBLIC_FILES || oldTotal !== answer.total)
      throw new Error(`totals: new ${answer.total}, old ${oldTotal}, expected ${GRANTS + PUBLIC_FILES}`);

    // The requests in a run of their own: the old statements' seconds of WASM at 100,000 files
    // (the embedded database is a thread of this process) would land in the requests beside them.
    const times = { http: [], control: [], newSql: [], oldSql: [] };
    const warmUp = size === SIZES[0] ? FIRST_WARM_UP : WARM_UP;
    for (let run = 0; run < warmUp + RUNS; run++) {
      const http = await timed(request);
      const controlMs = await timed(control);
      if (run < warmUp) continue;
      times.http.push(http);
      times.control.push(controlMs);
    }
    for (let run = 0; run < WARM_UP + RUNS; run++) {
      const fresh = await timed(() => both(newStatements));
      const old = await timed(() => both(oldStatements));
      if (run < WARM_UP) continue;
      times.newSql.push(fresh);
      times.oldSql.push(old);
    }
    const row = {
      size,
      seedSeconds: seedMs / 1000,
      http: median(times.http),
      control: median(times.control),
      newSql: median(times.newSql),
      oldSql: median(times.oldSql),
    };
    results.push(row);
    plans.push({
      size,
      newPage: await planSummary(newStatements[0].sql, newStatements[0].params),
      newCount: await planSummary(newStatements[1].sql, newStatements[1].params),
      oldPage: await planSummary(OLD_PAGE, oldStatements[0].params),
      oldCount: await planSummary(OLD_COUNT, oldStatements[1].params),
    });
    console.log(
      `${size} files (seeded and analyzed in ${row.seedSeconds.toFixed(1)} s): AudioFiles over HTTP ${row.http.toFixed(2)} ms (Me beside it ${row.control.toFixed(2)} ms); ` +
        `page + count SQL ${row.newSql.toFixed(2)} ms, before ${row.oldSql.toFixed(2)} ms (medians of ${RUNS})`,
    );
    for (const [name, plan] of Object.entries(plans.at(-1)).filter(([k]) => k !== 'size'))
      console.log(`  ${name}: ${plan}`);
  }
} finally {
  await app.close();
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}

if (jsonFile) {
  const smallest = results[0];
  const label = (n) => `${n.toLocaleString('en')} files`;
  const figures = results.flatMap((r) => [
    {
      label: `${label(r.size)}: page + count statements, median`,
      value: Number(r.newSql.toFixed(2)),
      unit: 'ms',
      baseline: Number(r.oldSql.toFixed(2)),
      baselineLabel: 'the statements before (is_public or id in grants), same run',
      better: 'lower',
    },
    {
      label: `${label(r.size)}: AudioFiles over HTTP, median`,
      value: Number(r.http.toFixed(2)),
      unit: 'ms',
      baseline: Number(r.control.toFixed(2)),
      baselineLabel: 'the Me request timed beside each, same run',
      better: 'lower',
    },
    {
      label: `${label(r.size)}: AudioFiles over HTTP in Me requests (its median over Me's)`,
      value: Number((r.http / r.control).toFixed(2)),
      unit: 'x Me',
      baseline: Number((smallest.http / smallest.control).toFixed(2)),
      baselineLabel: `the same at ${label(smallest.size)}, same run`,
      better: 'lower',
      aim: 'ratio <= 1.5',
      met: r.http / r.control <= 1.5 * (smallest.http / smallest.control),
    },
  ]);
  const notes = [
    `One user with ${GRANTS} grants and ${PUBLIC_FILES} public files; every other file private and granted to one of ${OTHER_USERS} other users. Statistics taken (ANALYZE) after each seeding, as the app's keeper or autovacuum would within a minute.`,
    `Database: ${db.label}. ${RUNS} runs after ${WARM_UP} warm-ups (${FIRST_WARM_UP} at the first size), first the AudioFiles and Me requests alternating, then new and old statements alternating. Load average at start / end: ${loadAtStart} / ${load()}.`,
    ...plans.flatMap((p) => [
      `Plans at ${label(p.size)}: page ${p.newPage}. Count ${p.newCount}.`,
      `Before, at ${label(p.size)}: page ${p.oldPage}. Count ${p.oldCount}.`,
    ]),
  ];
  writeFileSync(jsonFile, JSON.stringify({ title: 'Library query at scale', figures, notes }, null, 2));
}
