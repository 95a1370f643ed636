import { ConfigError, loadConfig } from './config.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  process.stderr.write(`Cannot start: ${err instanceof ConfigError ? err.message : String(err)}\n`);
  process.exit(1);
}
// The app's modules load once the environment is known good: a refusal answers at once, not after
// seconds of loading every feature (GraphQL, the ORM, the entities).
const [{ createApp }, { ensureFirstAdmin, generatedPasswordNotice }, { createLogger }] = await Promise.all([
  import('./compose/app.js'),
  import('./features/users/bootstrap-admin.js'),
  import('./logger.js'),
]);
const logger = createLogger(config.logLevel);
let generatedPassword: string | null = null;
/** Once the administrator exists its generated password must be seen, whether the start succeeds or not. */
const showGeneratedPassword = () => {
  if (generatedPassword) process.stdout.write(generatedPasswordNotice(config.adminEmail, generatedPassword));
};

try {
  const app = await createApp(config, { logger });
  generatedPassword = await ensureFirstAdmin(app.orm, config, logger);
  const url = await app.listen();
  logger.info('server.listening', { url });
  // The lines for the person at the terminal come last, below the start's log lines.
  process.stdout.write(`Protected audio library is running at ${url}\n`);
  showGeneratedPassword();

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('server.stopping', { signal });
    // Never hang on a stuck connection: leave after 10 s whatever is still open.
    setTimeout(() => process.exit(0), 10_000).unref();
    await app.close().catch((err: unknown) => logger.error('server.stop_failed', { error: String(err) }));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
} catch (err) {
  const message = err instanceof Error ? err.message.split('\n')[0] : String(err);
  const hint =
    (err as NodeJS.ErrnoException)?.code === 'EADDRINUSE' ? ` (port ${config.port} is in use: set PORT)` : '';
  process.stderr.write(`Cannot start: ${message}${hint}\n`);
  showGeneratedPassword();
  process.exit(1);
}
