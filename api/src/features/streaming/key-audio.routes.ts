import type { ByteRoute } from '../../http/byte-route.js';
import { sendByteRange } from '../playback/byte-range.js';
import { openKeyAudio } from '../playback/key-audio.service.js';
import { PRIVATE_BYTES } from './stream.routes.js';

/**
 * An API key's audio: `Authorization: Bearer pal_...` is its only credential, so a copied URL
 * carries none. Served ahead of Express (http/byte-server.ts), which authenticates whatever token
 * comes and checks the key's scopes before the route.
 */
export const keyAudioRoutes: ByteRoute[] = [
  {
    path: '/files/:id/audio',
    methods: ['GET', 'HEAD'],
    credential: 'header',
    async serve(ctx, exchange, id) {
      await sendByteRange(exchange, await openKeyAudio(ctx, id), PRIVATE_BYTES);
    },
  },
];
