import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { startEmbeddedDatabase } from './embedded.js';
import { templateDir } from './embedded-template.js';
import { templateStamp } from './embedded-template-stamp.js';
import { installJobSchema } from './job-schema.js';
import { migrate, openOrm } from './orm.js';

/**
 * Run by `npm run build` after the compiler: makes the embedded database's template cluster
 * (embedded-template.ts) with every migration applied and the job queue's tables. It is remade only when the migrations or
 * the PGlite version change, so a build with neither changed costs nothing here.
 */
const stamp = templateStamp();
const stampFile = `${templateDir}.json`;

if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  process.stdout.write('embedded database template: up to date\n');
} else {
  const building = `${templateDir}.building`;
  for (const old of [stampFile, templateDir, building, `${building}-socket`])
    rmSync(old, { recursive: true, force: true });
  const started = Date.now();
  const db = await startEmbeddedDatabase(building, { template: false });
  try {
    const orm = await openOrm({ embedded: db.connection, entities: [] });
    await migrate(orm);
    await installJobSchema(orm);
    await orm.close(true);
  } finally {
    await db.stop();
    rmSync(`${building}-socket`, { recursive: true, force: true });
  }
  renameSync(building, templateDir);
  writeFileSync(stampFile, stamp);
  process.stdout.write(`embedded database template: made in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
