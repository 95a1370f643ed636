/**
 * Development tool: writes the migration that brings an empty database to the current entities.
 * Run with `npm run migration:initial -w api` on a fresh embedded database.
 */
import { startEmbeddedDatabase } from '../db/embedded.js';
import { migratorOf, openOrm } from '../db/orm.js';
import { entities } from './entities.js';

const name = process.argv[2];
const db = await startEmbeddedDatabase();
const orm = await openOrm({ embedded: db.connection, entities });
try {
  const migrator = await migratorOf(orm);
  await migrator.up();
  const result = await migrator.createMigration('src/db/migrations', false, false, name);
  console.log(result.fileName ? `wrote ${result.fileName}` : 'entities and migrations already agree');
} finally {
  await orm.close(true);
  await db.stop();
}
