// `npm run backup -- --out FILE` and `npm run restore -- --in FILE` (docs/backups.md): builds the
// API if it is stale, as `npm start` does, then runs the command from the build with the same
// environment (DATA_DIR, DATABASE_URL).
import { build } from './build.mjs';

await build(['api']);
const { runBackupCommand } = await import('../api/dist/features/backup/backup-command.js');
process.exitCode = await runBackupCommand(process.argv.slice(2));
