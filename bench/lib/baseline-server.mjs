// The baseline server, run as a child process like the app: the same database (embedded PGlite on
// the same DATA_DIR, or the same PostgreSQL) through the same driver (MikroORM's connection), behind
// a bare node:http handler with no Express, GraphQL, auth or ORM entities. It serves:
//   POST /sql/:name   the statements captured from the app's request `name`, one after another
//   POST /argon2      one argon2id verify of the bench password (what a login cannot avoid)
//   GET  /bytes       a Range of the stream stage's MP3, straight from disk
//   WS   /ws?id=N     a plain WebSocket; POST /notify/N sends it one event (the floor for live events)
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import argon2 from 'argon2';
import { WebSocketServer } from 'ws';
import { dist } from './paths.mjs';

const { startEmbeddedDatabase } = await import(dist('db/embedded.js'));
const { openOrm } = await import(dist('db/orm.js'));

const input = JSON.parse(readFileSync(process.env.BENCH_BASELINE_INPUT, 'utf8'));
const embedded = process.env.BENCH_DB_URL
  ? null
  : await startEmbeddedDatabase(path.join(process.env.DATA_DIR, 'pgdata'));
// Plain SQL only: no entity is mapped.
const orm = await openOrm(
  embedded ? { embedded: embedded.connection, entities: [] } : { url: process.env.BENCH_DB_URL, entities: [] },
);
const connection = orm.em.getConnection();
const bytesSize = statSync(input.bytesFile).size;
const sockets = new Map();

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function runStatements(name) {
  const statements = input.queries[name]?.statements;
  if (!statements) return null;
  const results = [];
  for (const { sql, params } of statements) results.push(await connection.execute(sql, params));
  return results;
}

function sendBytes(req, res) {
  const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = match ? Number(match[1]) : 0;
  const end = match && match[2] ? Math.min(Number(match[2]), bytesSize - 1) : bytesSize - 1;
  res.writeHead(match ? 206 : 200, {
    'content-type': 'audio/mpeg',
    'content-length': end - start + 1,
    'accept-ranges': 'bytes',
    ...(match ? { 'content-range': `bytes ${start}-${end}/${bytesSize}` } : {}),
  });
  createReadStream(input.bytesFile, { start, end }).pipe(res);
}

const server = createServer((req, res) => {
  req.resume();
  const url = new URL(req.url, 'http://localhost');
  const route = url.pathname.split('/');
  const handle = async () => {
    if (req.method === 'POST' && route[1] === 'sql') {
      const results = await runStatements(route[2]);
      return results ? send(res, 200, { data: results }) : send(res, 404, { error: 'unknown statements' });
    }
    if (req.method === 'POST' && route[1] === 'argon2') {
      return send(res, 200, { ok: await argon2.verify(input.passwordHash, input.password) });
    }
    if (req.method === 'GET' && route[1] === 'bytes') return sendBytes(req, res);
    if (req.method === 'POST' && route[1] === 'notify') {
      const socket = sockets.get(route[2]);
      if (!socket) return send(res, 404, { error: 'no such socket' });
      socket.send(JSON.stringify({ type: 'SESSION_TERMINATED', at: new Date().toISOString() }));
      return send(res, 200, { ok: true });
    }
    return send(res, 404, { error: 'not found' });
  };
  handle().catch((err) => send(res, 500, { error: String(err) }));
});

const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (socket, req) => {
  const id = new URL(req.url, 'http://localhost').searchParams.get('id');
  sockets.set(id, socket);
  socket.on('close', () => sockets.delete(id));
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`Baseline server listening at http://127.0.0.1:${server.address().port}\n`);
});

process.on('SIGTERM', async () => {
  for (const socket of sockets.values()) socket.terminate();
  server.closeAllConnections();
  server.close();
  await orm.close(true);
  await embedded?.stop();
  process.exit(0);
});
