import compression from 'compression';
import type { RequestHandler } from 'express';

/** Text worth compressing: pages, scripts, styles, JSON and GraphQL answers. */
const TEXT_TYPES = /^(text\/(html|css|javascript|plain)|application\/(json|graphql-response\+json|javascript))\b/;
/** Below this, compression saves less than it costs. */
const MIN_BYTES = 1024;

/**
 * Brotli or gzip, by Accept-Encoding, for text answers above 1 KiB. Never for audio, HLS segments
 * and keys, covers or any range answer: their types are not text, media is compressed already, and
 * a range's bytes must be the stored ones. Answers already encoded (the build's precompressed
 * assets) pass through. Compressing answers that carry secrets is safe here because no credential
 * they need is ambient (bearer tokens): another site cannot make a signed-in request and watch its
 * size, which a BREACH-style guess needs. The one cookie, the stream proof, is SameSite=Strict,
 * scoped to the byte paths and only proves a session beside the URL's own credential; those paths
 * are served ahead of Express (http/byte-server.ts) and never compressed.
 */
export function compressAnswers(): RequestHandler {
  const compress = compression({
    threshold: MIN_BYTES,
    filter: (_req, res) => TEXT_TYPES.test(String(res.getHeader('Content-Type') ?? '')),
  });
  // Range requests (the player's byte reads) skip the wrapper altogether, not just the encoding.
  return (req, res, next) => (req.headers.range ? next() : compress(req, res, next));
}
