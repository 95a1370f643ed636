// Backup throughput: a library with BENCH_BACKUP_BYTES of media (default 1 GiB, in files of
// BENCH_BACKUP_FILE_BYTES, default 32 MiB, each an audio_files row) backed up by the app
// (backupToFile: snapshot, hard links, SHA-256 of every entry, one tar, flushed to disk before it
// is renamed) while it runs, against a plain `tar -cf` of the same files to the same disk, and the
// same tar followed by an fsync of its archive (the app's backup waits for the disk; tar leaves its
// archive in the page cache), measured in the same run: rounds rotate the order, each after a
// `sync`, medians reported. The media are random bytes (audio does not compress, and no side
// compresses).
// Run with `npm run bench:backup` (builds the API first). Contract (bench/README.md): `--json
// <file>` writes the figures. Knobs: BENCH_BACKUP_BYTES, BENCH_BACKUP_FILE_BYTES,
// BENCH_BACKUP_ROUNDS (default 3), BENCH_DATABASE_URL (a temporary database there).
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openBenchDatabase } from './lib/database.mjs';
import { dist } from './lib/paths.mjs';

const { createApp } = await import(dist('compose/app.js'));
const { loadConfig } = await import(dist('config.js'));
const { createLogger } = await import(dist('logger.js'));
const { AudioFile } = await import(dist('features/files/audio-file.entity.js'));
const { backupToFile } = await import(dist('features/backup/backup.service.js'));

const args = process.argv.slice(2);
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const TOTAL = Number(process.env.BENCH_BACKUP_BYTES ?? 1024 ** 3);
const FILE_BYTES = Math.min(TOTAL, Number(process.env.BENCH_BACKUP_FILE_BYTES ?? 32 * 1024 ** 2));
const ROUNDS = Number(process.env.BENCH_BACKUP_ROUNDS ?? 3);
const mib = (bytes) => bytes / 1024 ** 2;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const work = mkdtempSync(path.join(tmpdir(), 'pal-bench-backup-'));
const dataDir = path.join(work, 'data');
const db = await openBenchDatabase(process.env.BENCH_DATABASE_URL);
const config = loadConfig({
  PORT: '0',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'warn',
  SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  ...(db.url ? { DATABASE_URL: db.url } : {}),
});
const app = await createApp(config, { logger: createLogger('warn') });
const loadAtStart = load();

/** Files of random bytes under DATA_DIR/audio, each with its row, as an upload leaves them. */
async function seedMedia() {
  mkdirSync(path.join(dataDir, 'audio'), { recursive: true });
  const block = randomBytes(8 * 1024 ** 2);
  const em = app.orm.em.fork();
  let seeded = 0;
  for (let i = 0; seeded < TOTAL; i++) {
    const size = Math.min(FILE_BYTES, TOTAL - seeded);
    const storagePath = `audio/${randomUUID()}.mp3`;
    const out = await open(path.join(dataDir, storagePath), 'w');
    // A fresh first block per file, so no two files are alike.
    for (let at = 0; at < size; at += block.length) {
      await out.write(at === 0 ? randomBytes(block.length) : block, 0, Math.min(block.length, size - at));
    }
    await out.close();
    em.create(AudioFile, {
      title: `Bench ${i}`,
      filename: `bench-${i}.mp3`,
      storagePath,
      size,
      duration: 60,
      mimeType: 'audio/mpeg',
      isPublic: false,
    });
    seeded += size;
  }
  await em.flush();
  return seeded;
}

function timeTar(out, { fsync }) {
  const started = performance.now();
  const result = spawnSync('tar', ['-cf', out, '-C', dataDir, 'audio'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`tar failed with ${result.status}`);
  if (fsync) {
    const fd = openSync(out, 'r+');
    fsyncSync(fd);
    closeSync(fd);
  }
  return performance.now() - started;
}

async function timeBackup(out) {
  const started = performance.now();
  await backupToFile({ em: app.orm.em, dataDir }, out);
  return performance.now() - started;
}

const sides = {
  app: { label: 'app backup', time: timeBackup },
  tar: { label: 'plain tar', time: (out) => timeTar(out, { fsync: false }) },
  tarFsync: { label: 'tar + fsync', time: (out) => timeTar(out, { fsync: true }) },
};
const results = { app: [], tar: [], tarFsync: [] };
const archiveBytes = {};
let mediaBytes = 0;
try {
  mediaBytes = await seedMedia();
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate which goes first, so none always meets a warmer page cache.
    const names = Object.keys(sides);
    for (const side of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
      const out = path.join(work, `${side}-${round}.tar`);
      spawnSync('sync');
      const ms = await sides[side].time(out);
      results[side].push(ms);
      archiveBytes[side] = statSync(out).size;
      rmSync(out);
      console.log(`round ${round + 1}: ${sides[side].label} ${(ms / 1000).toFixed(2)} s`);
    }
  }
} finally {
  await app.close();
  await db.drop();
  rmSync(work, { recursive: true, force: true });
}

const rate = (side) => mib(mediaBytes) / (median(results[side]) / 1000);
const [appRate, tarRate, tarFsyncRate] = [rate('app'), rate('tar'), rate('tarFsync')];
console.log(
  `Backup of ${mib(mediaBytes).toFixed(0)} MiB of media in ${Math.round(mediaBytes / FILE_BYTES)} files ` +
    `(medians of ${ROUNDS}): app ${appRate.toFixed(1)} MiB/s; plain tar ${tarRate.toFixed(1)} MiB/s ` +
    `(ratio ${(appRate / tarRate).toFixed(2)}); tar + fsync ${tarFsyncRate.toFixed(1)} MiB/s ` +
    `(ratio ${(appRate / tarFsyncRate).toFixed(2)}); archives ${mib(archiveBytes.app).toFixed(1)} and ${mib(archiveBytes.tar).toFixed(1)} MiB`,
);

if (jsonFile) {
  const figures = [
    {
      label: `backup of ${mib(mediaBytes).toFixed(0)} MiB of media, median`,
      value: Number(appRate.toFixed(1)),
      unit: 'MiB/s',
      baseline: Number(tarRate.toFixed(1)),
      baselineLabel: 'plain tar -cf of the same files to the same disk, same run',
      better: 'higher',
      // The backup reads every byte once more than tar does (SHA-256 for the manifest) and waits
      // for the disk: at least 0.3 of tar's rate, 1 GiB in under about 10 s where tar takes 3.
      aim: 'ratio >= 0.3',
      met: appRate / tarRate >= 0.3,
    },
    {
      label: `backup of ${mib(mediaBytes).toFixed(0)} MiB of media, median, against a durable tar`,
      value: Number(appRate.toFixed(1)),
      unit: 'MiB/s',
      baseline: Number(tarFsyncRate.toFixed(1)),
      baselineLabel: 'the same tar -cf, then fsync of its archive (the app flushes before it renames), same run',
      better: 'higher',
      aim: 'ratio >= 0.5',
      met: appRate / tarFsyncRate >= 0.5,
    },
  ];
  const notes = [
    `${Math.round(mediaBytes / FILE_BYTES)} files of ${mib(FILE_BYTES).toFixed(0)} MiB of random bytes, each an audio_files row; the app's backup also snapshots the database and hashes every entry (SHA-256), tar does neither. ${ROUNDS} rounds in rotating order, after a sync each.`,
    `Archive sizes: app ${mib(archiveBytes.app).toFixed(1)} MiB, tar ${mib(archiveBytes.tar).toFixed(1)} MiB.`,
    `Database: ${db.label}. Load average at start / end: ${loadAtStart} / ${load()}.`,
  ];
  writeFileSync(jsonFile, JSON.stringify({ title: 'Backup', figures, notes }, null, 2));
}
