type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** One JSON line per event on stderr. Callers pass ids and codes, never tokens or passwords. */
export function createLogger(level: Level | 'silent'): Logger {
  const write = (at: Level) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[at] < order[level]) return;
    process.stderr.write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }) + '\n');
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
