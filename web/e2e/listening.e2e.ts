import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Seconds on the left of a "m:ss / m:ss" clock: the full player's or the mini-player's. */
async function clockSeconds(page: Page, name = 'Playback time'): Promise<number> {
  const text = (await page.getByRole('timer', { name }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

/** The app's one audio element (PlayerProvider's, first in the document). */
function audioState(page: Page) {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    return { paused: audio?.paused ?? true, time: audio?.currentTime ?? 0, src: audio?.getAttribute('src') ?? null };
  });
}

async function listener(title: string, seconds: number) {
  const user = await createUser();
  const file = await uploadAudio(title, { seconds, description: 'A steady tone for the listening tests' });
  await grantAccess(user.id, file.id);
  const { page, context } = await newDevice(browser);
  await signIn(page, user.email, user.password);
  return { user, file, page, context };
}

async function openAndPlay(page: Page, fileId: string) {
  await page.goto(`/player/${fileId}`);
  await page.getByText('Ready', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => clockSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
}

describe('listening', () => {
  it('keeps playing from the player to the library and the profile, and stops when access is revoked', async () => {
    const { user, file, page, context } = await listener(`Travelling tone ${Date.now()}`, 120);
    await openAndPlay(page, file.id);
    // The full view has no mini-player of its own file.
    expect(await page.getByRole('region', { name: 'Now playing' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Back to Library' }).click();
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByText(file.title).waitFor();
    const onLibrary = await clockSeconds(page, 'Mini player time');
    await expect.poll(() => clockSeconds(page, 'Mini player time'), { timeout: 15_000 }).toBeGreaterThan(onLibrary + 1);
    expect((await audioState(page)).paused).toBe(false);
    await screenshot(page, 'mini-player-library');

    await page.getByRole('button', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    const onProfile = await clockSeconds(page, 'Mini player time');
    await expect.poll(() => clockSeconds(page, 'Mini player time'), { timeout: 15_000 }).toBeGreaterThan(onProfile + 1);
    expect((await audioState(page)).paused).toBe(false);

    // The bar pauses and resumes, and opens the full view.
    await bar.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    await bar.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);

    // Revoking the grant stops it at once, wherever the listener is.
    const admin = await adminApi();
    const access = await rest<{ data: { file: { fileAccesses: { id: string; user: { id: string } }[] } } }>(
      'GET',
      `/admin/file-access/file/${file.id}`,
      undefined,
      admin,
    );
    const grant = access.body.data.file.fileAccesses.find((g) => g.user.id === user.id);
    expect(grant).toBeDefined();
    await rest('DELETE', `/admin/file-access/${grant?.id}`, undefined, admin);
    await expect.poll(async () => audioState(page), { timeout: 15_000 }).toMatchObject({ paused: true, src: null });
    await context.close();
  });

  it('plays 1.5x as fast at 1.5x, remembers the speed, and skips and jumps chapters with the keyboard', async () => {
    const { file, page, context } = await listener(`Keyboard tone ${Date.now()}`, 240);
    const admin = await adminApi();
    const chapters = [
      { label: 'Part one', startTime: 0, endTime: 100, order: 0 },
      { label: 'Part two', startTime: 100, endTime: 180, order: 1 },
      { label: 'Part three', startTime: 180, endTime: null, order: 2 },
    ];
    expect((await rest('POST', `/files/${file.id}/chapters`, { chapters }, admin)).status).toBeLessThan(300);
    await openAndPlay(page, file.id);

    /** Media seconds per wall-clock second over `ms`. */
    const speed = async (ms: number) => {
      const before = await page.evaluate(() => [document.querySelector('audio')?.currentTime ?? 0, performance.now()]);
      await page.waitForTimeout(ms);
      const after = await page.evaluate(() => [document.querySelector('audio')?.currentTime ?? 0, performance.now()]);
      return (after[0] - before[0]) / ((after[1] - before[1]) / 1000);
    };
    const normal = await speed(4000);
    await page.getByRole('button', { name: /^Speed/ }).click();
    await page.getByRole('menuitem', { name: '1.5x' }).click();
    await page.getByRole('button', { name: 'Speed 1.5x' }).waitFor();
    const faster = await speed(4000);
    expect(faster / normal).toBeGreaterThan(1.3);
    expect(faster / normal).toBeLessThan(1.7);

    // Keys act on the page, not on the focused menu button.
    await page.getByRole('heading', { name: file.title }).click();
    await page.keyboard.press(']');
    await page.getByRole('button', { name: 'Speed 1.75x' }).waitFor();
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    await page.getByRole('button', { name: 'Speed 1.25x' }).waitFor();

    await page.keyboard.press('Space');
    await expect.poll(async () => (await audioState(page)).paused).toBe(true);
    const start = await clockSeconds(page);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(start + 30);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => clockSeconds(page)).toBe(start + 15);
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(100);
    await page.getByText('Chapter: Part two').waitFor();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(180);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => clockSeconds(page)).toBe(100);
    // Skipping past the end lands just before it, without a refused signed URL.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/drm/signed-url/') && r.status() >= 400) refused.push(r.url());
    });
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(239);
    expect(refused).toEqual([]);

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Next chapter').waitFor();
    await help.getByRole('button', { name: 'Close' }).click();

    // The chosen speed is remembered for this user.
    await page.reload();
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Speed 1.25x' }).waitFor();
    await screenshot(page, 'player-controls');
    await context.close();
  });

  it('restores a position saved at 2:00 after signing out and in on another device, and lists it under Continue listening', async () => {
    const title = `Resume tone ${Date.now()}`;
    const { user, file, page, context } = await listener(title, 300);
    await openAndPlay(page, file.id);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('heading', { name: title }).click();
    // Back to 0:00, then four 30 s skips: 2:00.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => clockSeconds(page)).toBe(0);
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(120);
    // Play a moment and pause: the pause saves the position.
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('SaveProgress'),
    );
    await page.keyboard.press('Space');
    await expect.poll(async () => (await audioState(page)).paused).toBe(false);
    await page.keyboard.press('Space');
    await saved;
    const at = await clockSeconds(page);
    expect(at).toBeGreaterThanOrEqual(120);
    expect(at).toBeLessThan(123);

    await page.getByRole('button', { name: 'Back to Library' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    // The address changes first; the signed-in pages (and the player with them) go on React's next commit.
    await expect.poll(async () => (await audioState(page)).src, { timeout: 2000 }).toBeNull();
    await context.close();

    const other = await newDevice(browser);
    await signIn(other.page, user.email, user.password);
    const row = other.page.getByRole('region', { name: 'Continue listening' });
    await row.getByText(title).waitFor();
    await screenshot(other.page, 'library-continue-listening');
    await row.getByRole('button', { name: new RegExp(title) }).click();
    await other.page.waitForURL(`**/player/${file.id}`);
    await other.page.getByText('Ready', { exact: true }).waitFor();
    // The clock showed the element's latest second; the save took the one a moment before.
    await expect.poll(async () => Math.abs((await clockSeconds(other.page)) - at)).toBeLessThanOrEqual(1);
    await other.page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => clockSeconds(other.page), { timeout: 15_000 }).toBeGreaterThan(at);
    await other.context.close();
  }, 150_000);
});
