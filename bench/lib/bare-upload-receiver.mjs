// The floor for the chunked upload benchmark, run as a child process like the API: a bare
// node:http handler that does only what no upload server can skip. Each POST is one multipart
// chunk (the same body the API gets); its file part is parsed with busboy, fed to a running
// SHA-256 and written at its offset, as the API's data path does (the same hash thread, from the
// built API), with no Express, auth, database, markers or checks. POST /finish answers the digest.
// Prints `listening <port>`.
import { createWriteStream, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import busboy from 'busboy';
import { dist } from './paths.mjs';

const { hashThread } = await import(dist('features/uploads/hash-thread.js'));
const CHUNK = 5 * 1024 * 1024;
const target = process.argv[2];
let hash = hashThread.fork(null);

function receiveChunk(req, res) {
  const index = Number(req.headers['x-chunk-index']);
  const parser = busboy({ headers: req.headers });
  parser.on('file', (_name, stream) => {
    const out = createWriteStream(target, { flags: 'r+', start: index * CHUNK, highWaterMark: 1024 * 1024 });
    stream.on('data', (bytes) => {
      const fileReady = out.write(bytes);
      const hashReady = hash.write(bytes);
      if (!fileReady || !hashReady) {
        stream.pause();
        Promise.all([fileReady || new Promise((r) => out.once('drain', r)), hashReady || hash.drained()]).then(() =>
          stream.resume(),
        );
      }
    });
    stream.once('end', () => {
      hash.end();
      out.end();
    });
    out.once('close', () => res.end('{"success":true}'));
  });
  req.pipe(parser);
}

createServer((req, res) => {
  if (req.url === '/start') {
    writeFileSync(target, '');
    hashThread.drop(hash.id);
    hash = hashThread.fork(null);
    res.end('{}');
  } else if (req.url === '/finish') {
    hashThread.digest(hash.id, '', 0, 0).then((digest) => res.end(JSON.stringify({ digest })));
  } else {
    receiveChunk(req, res);
  }
}).listen(0, '127.0.0.1', function () {
  console.log(`listening ${this.address().port}`);
});
