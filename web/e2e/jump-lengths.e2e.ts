import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Seconds on the left of the full player's "m:ss / m:ss" clock. */
async function clockSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Playback time' }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

describe('jump lengths', () => {
  it('uses the jump lengths a listener chose, for buttons and keys, after a reload', async () => {
    const user = await createUser();
    const file = await uploadAudio(`Jump tone ${Date.now()}`, { seconds: 240 });
    await grantAccess(user.id, file.id);
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password, `/player/${file.id}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    // The defaults: back 15, forward 30.
    await page.getByRole('button', { name: 'Back 15 seconds', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Forward 30 seconds', exact: true }).waitFor();

    await page.getByRole('button', { name: /^Jump lengths/ }).click();
    await page.getByRole('menuitemradio', { name: 'Forward 60 seconds' }).click();
    await page.getByRole('button', { name: /^Jump lengths/ }).click();
    await page.getByRole('menuitemradio', { name: 'Back 10 seconds' }).click();
    await page.getByRole('button', { name: 'Jump lengths: back 10 seconds, forward 60 seconds' }).waitFor();

    // Remembered: after a reload the buttons, the keys and the shortcut help use them.
    await page.reload();
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Forward 60 seconds', exact: true }).click();
    await expect.poll(() => clockSeconds(page)).toBe(60);
    await page.getByRole('button', { name: 'Back 10 seconds', exact: true }).click();
    await expect.poll(() => clockSeconds(page)).toBe(50);
    await page.getByRole('heading', { name: file.title }).click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clockSeconds(page)).toBe(110);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => clockSeconds(page)).toBe(100);
    await page.getByRole('button', { name: /^Jump lengths/ }).click();
    expect(await page.getByRole('menuitemradio', { name: 'Back 10 seconds' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Forward 60 seconds').waitFor();
    await help.getByRole('button', { name: 'Close' }).click();

    // The mini-player on the library jumps the same.
    await page.getByRole('button', { name: 'Back to Library' }).click();
    const bar = page.getByRole('region', { name: 'Now playing' });
    await bar.getByRole('button', { name: 'Forward 60 seconds', exact: true }).waitFor();
    await context.close();
  });
});
