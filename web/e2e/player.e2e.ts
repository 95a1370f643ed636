import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';
import { libraryGrid, signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Seconds shown on the left of the player's "m:ss / m:ss" clock. */
async function shownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Playback time' }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

async function openPlayer(title: string) {
  const user = await createUser();
  const file = await uploadAudio(title, { seconds: 120, description: 'A steady tone for the player test' });
  await grantAccess(user.id, file.id);
  const { page, context } = await newDevice(browser);
  await signIn(page, user.email, user.password);
  await libraryGrid(page)
    .getByRole('button', { name: new RegExp(title) })
    .click();
  await page.waitForURL(`**/player/${file.id}`);
  await page.getByText('Ready', { exact: true }).waitFor();
  return { page, context, file };
}

describe('secure player', () => {
  it('plays a file through the stream session and the clock advances', async () => {
    const { page, context } = await openPlayer(`Player tone ${Date.now()}`);
    await expect.poll(() => page.getByText('DRM Protected / High Security').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/protected by DRM/).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('timer', { name: 'Playback time' }).textContent()).toBe('0:00 / 2:00');
    // The media element offers nothing to download, cast or pop out.
    const audio = page.locator('audio').first();
    expect(await audio.getAttribute('controlsList')).toContain('nodownload');
    expect(await audio.getAttribute('src')).toMatch(/^\/api\/v1\/drm\/stream\//);

    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    await screenshot(page, 'player-playing');
    await context.close();
  });

  it('seeks through a signed URL and keeps playing from there', async () => {
    const { page, context } = await openPlayer(`Seek tone ${Date.now()}`);
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);

    const signed = page.waitForResponse((r) => r.url().includes('/api/v1/drm/signed-url/') && r.ok());
    const slider = page.locator('.MuiSlider-root', { has: page.getByRole('slider', { name: 'Seek' }) });
    const box = await slider.boundingBox();
    if (!box) throw new Error('seek bar not visible');
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await signed;
    await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(90);
    const afterSeek = await shownSeconds(page);
    await expect.poll(() => shownSeconds(page), { timeout: 15_000 }).toBeGreaterThan(afterSeek);
    expect(await page.locator('audio').first().getAttribute('src')).toMatch(/\/api\/v1\/drm\/signed\//);
    await screenshot(page, 'player-after-seek');
    await context.close();
  });

  it('opens a new stream session when the old one ends mid-file, and plays on from there', async () => {
    const title = `Expiring tone ${Date.now()}`;
    const user = await createUser();
    const file = await uploadAudio(title, { seconds: 120 });
    await grantAccess(user.id, file.id);
    const { page, context } = await newDevice(browser);
    // The first stream session ends after its first 48 KB (a few seconds of audio), as one that
    // expires while playing or paused does: its response ends there (a proper 206 of that range)
    // and every later request for it is refused. Sessions opened after it pass untouched.
    const tokens: string[] = [];
    let cut = false;
    await page.route('**/api/v1/drm/stream/**', async (route) => {
      const request = route.request();
      const token = new URL(request.url()).pathname.split('/').pop() ?? '';
      if (!tokens.includes(token)) tokens.push(token);
      if (token !== tokens[0]) return route.continue();
      if (!cut && request.method() === 'GET') {
        cut = true;
        const response = await route.fetch({ headers: { ...request.headers(), range: 'bytes=0-49151' } });
        return route.fulfill({ response });
      }
      return route.fulfill({ status: 403, contentType: 'application/json', body: '{"success":false}' });
    });
    await signIn(page, user.email, user.password);
    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(title) })
      .click();
    await page.waitForURL(`**/player/${file.id}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => shownSeconds(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
    expect(tokens).toHaveLength(2);
    expect(await page.getByText(/Audio loading failed/).count()).toBe(0);
    await context.close();
  });

  it('plays a finalized chapter as encrypted HLS', async () => {
    const title = `Chapter tone ${Date.now()}`;
    const user = await createUser();
    const file = await uploadAudio(title, { seconds: 40 });
    await grantAccess(user.id, file.id);
    const admin = await adminApi();
    const chapters = [
      { label: 'Opening', startTime: 0, endTime: 20, order: 0 },
      { label: 'Closing', startTime: 20, endTime: null, order: 1 },
    ];
    const created = await rest('POST', `/files/${file.id}/chapters`, { chapters }, admin);
    expect(created.status).toBeLessThan(300);
    const finalized = await rest('POST', `/files/${file.id}/chapters/finalize`, { storageType: 'filesystem' }, admin);
    expect(finalized.status).toBeLessThan(300);
    // Finalize answers at once and encodes in the background: wait until both chapters are ready.
    await expect
      .poll(
        async () => {
          const list = await rest<{ data: { status: string }[] }>(
            'GET',
            `/files/${file.id}/chapters`,
            undefined,
            admin,
          );
          return list.body.data.map((c) => c.status).join(',');
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe('ready,ready');

    const { page, context } = await newDevice(browser);
    const keyRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/chapters\/[^/]+\/key/.test(request.url())) keyRequests.push(request.headers()['authorization'] ?? '');
    });
    await signIn(page, user.email, user.password, `/player/${file.id}`);
    await page.getByRole('button', { name: 'Play Opening' }).click();
    await page.getByRole('button', { name: 'Stop Opening' }).waitFor();
    await expect
      .poll(
        async () => Number(/Playing 0:(\d\d)/.exec((await page.getByText(/^Playing /).textContent()) ?? '')?.[1] ?? -1),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThanOrEqual(2);
    // The AES key went only with the session's bearer token.
    expect(keyRequests.length).toBeGreaterThan(0);
    expect(keyRequests.every((h) => h.startsWith('Bearer '))).toBe(true);
    await screenshot(page, 'player-chapter-playing');
    await context.close();
  });
});
