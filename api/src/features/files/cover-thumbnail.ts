import type { Sharp, SharpOptions } from 'sharp';

/**
 * The card-sized copy of a cover: the library shows covers about 200-340 CSS pixels high, so
 * 512 pixels on the long side stays sharp at twice the density while a 5 MB original stays home.
 */
export const THUMBNAIL_EDGE = 512;

/** Which copy of a cover a request wants: the original, or the card-sized one. */
export const coverSizes = ['full', 'thumbnail'] as const;
export type CoverSize = (typeof coverSizes)[number];

export const THUMBNAIL_MIME = 'image/webp';

/** A cover this small costs a card no more than a thumbnail would: it is served as it is. */
const SMALL_COVER_BYTES = 32 * 1024;

/** A 5 MB PNG can unpack to gigabytes of pixels: refuse anything above about 8000 x 5000. */
const MAX_INPUT_PIXELS = 40_000_000;

type SharpFactory = (input: Buffer, options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | null = null;

/** sharp (libvips) is loaded on the first cover, not at start: most starts never resize one. */
function loadSharp(): Promise<SharpFactory> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips' operation cache would keep decoded covers in memory between uploads.
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

/**
 * A WebP copy of the cover that fits in THUMBNAIL_EDGE x THUMBNAIL_EDGE, or null when the cover is
 * small enough to be its own thumbnail, when the copy would not be smaller, or when the image
 * cannot be decoded (its magic bytes were right, the rest was not: the original is served as sent).
 */
export async function makeThumbnail(original: Buffer): Promise<Buffer | null> {
  if (original.length <= SMALL_COVER_BYTES) return null;
  const sharp = await loadSharp();
  try {
    const thumbnail = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .resize(THUMBNAIL_EDGE, THUMBNAIL_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 78 })
      .toBuffer();
    return thumbnail.length < original.length ? thumbnail : null;
  } catch {
    return null;
  }
}
