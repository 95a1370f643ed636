import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { libraryGrid, signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Rgb = [number, number, number];

/** Colours of a screenshot of the element at points given as fractions of its width and height. */
async function coloursAt(page: Page, png: Buffer, points: [number, number][]): Promise<Rgb[]> {
  return page.evaluate(
    async ({ data, at }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      return at.map(([x, y]) => {
        const px = context.getImageData(
          Math.floor(x * (canvas.width - 1)),
          Math.floor(y * (canvas.height - 1)),
          1,
          1,
        ).data;
        return [px[0], px[1], px[2]] as Rgb;
      });
    },
    { data: png.toString('base64'), at: points },
  );
}

const isRed = ([r, g, b]: Rgb) => r > 200 && g < 60 && b < 60;

describe('library covers', () => {
  it('shows a square cover whole in the 16:9 card, and asks for covers only of files that have one', async () => {
    const tag = Date.now().toString(36);
    const user = await createUser();
    const covered = await uploadAudio(`Square Cover ${tag}`, { seconds: 2 });
    const bare = await uploadAudio(`No Cover ${tag}`, { seconds: 2 });
    await setCover(covered.id, makeCover('red', 600));
    for (const file of [covered, bare]) await grantAccess(user.id, file.id);

    const { page, context } = await newDevice(browser);
    const coverRequests: string[] = [];
    const failures: string[] = [];
    // Other test files share this server and may leave public files with covers: only ours count.
    const ours = (url: string) => [covered.id, bare.id].some((id) => url.includes(`/api/v1/files/cover/${id}`));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (ours(request.url())) coverRequests.push(url.pathname + url.search);
    });
    page.on('response', (response) => {
      if (ours(response.url()) && response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    await signIn(page, user.email, user.password);
    const image = libraryGrid(page).getByRole('img', { name: covered.title });
    await image.waitFor();
    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(bare.title) })
      .waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);

    // The newest file is also the "Recently added" shelf's first card: both cards show the cover,
    // from one request between them.
    const shelfImage = page.getByRole('region', { name: 'Recently added' }).getByRole('img', { name: covered.title });
    await expect.poll(() => shelfImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(600);

    // Cards ask for the card-sized copy, only the covered file's, and once.
    expect(coverRequests).toEqual([`/api/v1/files/cover/${covered.id}?size=thumbnail`]);
    expect(failures).toEqual([]);

    // The box is the spec's 16:9; the square sits whole in it: red from top to bottom in the middle,
    // the neutral background at the sides (a cropped cover would be red edge to edge).
    const box = (await image.boundingBox())!;
    expect(box.width / box.height).toBeCloseTo(16 / 9, 1);
    const [top, middle, bottom, left, right] = await coloursAt(page, await image.screenshot(), [
      [0.5, 0.02],
      [0.5, 0.5],
      [0.5, 0.98],
      [0.05, 0.5],
      [0.95, 0.5],
    ]);
    expect([top, middle, bottom].every(isRed)).toBe(true);
    expect([left, right].some(isRed)).toBe(false);
    await screenshot(page, 'library-covers');
    await context.close();
  });
});
