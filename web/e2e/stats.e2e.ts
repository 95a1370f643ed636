import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { createUser } from './support/api';
import { launchBrowser, newDevice } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';
import { recordPage } from './support/record';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Seconds on the left of the player's "m:ss / m:ss" clock. */
async function clockSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Playback time' }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

describe('listening stats', () => {
  it('shows a listener the time they played, and the administrator the book among the most played', async () => {
    const title = `Stats tone ${Date.now().toString(36)}`;
    const user = await createUser();
    const file = await uploadAudio(title, { seconds: 90, description: 'A tone for the stats test' });
    await grantAccess(user.id, file.id);
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);

    // Nothing listened yet.
    await page.goto('/stats');
    await expect.poll(() => page.getByTestId('listened-last-days').textContent()).toBe('0 s');

    // Play through two of the player's 10-second saves, then pause (a third save).
    await page.goto(`/player/${file.id}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => clockSeconds(page), { timeout: 40_000, interval: 500 }).toBeGreaterThanOrEqual(24);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    await page.goto('/profile');
    await page.getByRole('button', { name: 'Listening Stats' }).click();
    await page.waitForURL('**/stats');
    await page.getByRole('heading', { name: 'Listening Stats' }).waitFor();
    // Real playback counts: about 10 to 24 s (the first save only marks where listening began).
    await expect
      .poll(async () => Number(((await page.getByTestId('listened-last-days').textContent()) ?? '').replace(' s', '')))
      .toBeGreaterThanOrEqual(8);
    const todayBar = page.getByTestId('listening-bar').first();
    expect(await todayBar.textContent()).toMatch(/\d+ s$/);
    expect(await page.getByTestId('listening-bar').count()).toBe(14 + 8);
    await recordPage(page, 'listening-stats', () => page.getByRole('heading', { name: 'Finished books' }).waitFor());
    await context.close();

    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page, '/admin');
    await admin.page.getByRole('button', { name: 'Listening Stats' }).click();
    await admin.page.waitForURL('**/admin/stats');
    const byTime = admin.page.getByRole('list', { name: 'Most played by listening time' });
    await byTime.getByText(title).waitFor();
    const byListeners = admin.page.getByRole('list', { name: 'Most played by listeners' });
    await byListeners.getByText(title).waitFor();
    await admin.page.getByRole('table', { name: 'Active listeners' }).getByText(user.email).waitFor();
    await recordPage(admin.page, 'admin-listening-stats', () => byTime.getByText(title).waitFor());
    await admin.context.close();
  });
});
