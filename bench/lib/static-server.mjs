// The streaming baseline: a bare node:http server that pipes fs.createReadStream of one file
// (BENCH_STATIC_FILE) to the response, with single-range support and nothing else. Run as its own
// process by bench/stream.mjs through lib/server.mjs; prints its address like the API does.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';

const file = process.env.BENCH_STATIC_FILE;
const size = statSync(file).size;

const server = http.createServer((req, res) => {
  const match = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  const start = match ? Number(match[1]) : 0;
  const end = match && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  res.writeHead(match ? 206 : 200, {
    'Content-Type': 'audio/mpeg',
    'Accept-Ranges': 'bytes',
    'Content-Length': end - start + 1,
    ...(match ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file, { start, end }).pipe(res);
});

server.listen(0, '127.0.0.1', () => console.log(`static server at http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
