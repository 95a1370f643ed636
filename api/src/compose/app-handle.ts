import type { Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { AppDeps } from '../context.js';

export interface App {
  server: Server;
  orm: MikroORM;
  deps: AppDeps;
  /** Where it listens once started, e.g. http://127.0.0.1:4000. */
  url: string;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Stops accepting connections and cuts the open ones (streams would otherwise hold close up). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The handle main and tests hold: listen on the configured address; close runs `stopSteps` in order. */
export function appHandle(
  parts: { server: Server; orm: MikroORM; deps: AppDeps },
  stopSteps: (() => Promise<void>)[],
): App {
  const { server, orm, deps } = parts;
  const { config } = deps;
  const handle: App = {
    server,
    orm,
    deps,
    url: '',
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          const address = server.address();
          const port = typeof address === 'object' && address ? address.port : config.port;
          handle.url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
          resolve(handle.url);
        });
      }),
    async close() {
      for (const step of stopSteps) await step();
    },
  };
  return handle;
}
