import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { apiSignIn, createUser } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, makeLongAudio, uploadAudio } from './support/media';
import { pullWholeFile } from './support/stream';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the whole of an element is inside the phone's screen width. */
async function onPhoneScreen(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('rip alerts', () => {
  it("shows an administrator a listener's rip on the open dashboard as it happens, and flags the user's row", async () => {
    // 45 minutes at 64 kbit/s, pulled as sixteen ranges at once: past the free read-aheads, by far
    // more than the four minutes of audio a minute the server's default thresholds allow.
    const audiobook = makeLongAudio(45);
    const size = statSync(audiobook).size;
    const listener = await createUser('Fast Listener');
    const book = await uploadAudio(`Long audiobook ${randomUUID().slice(0, 6)}`, { audio: audiobook });
    await grantAccess(listener.id, book.id);

    const { page, context } = await newDevice(browser);
    let subscribed = false;
    page.on('websocket', (ws) =>
      ws.on('framesent', (frame) => {
        if (String(frame.payload).includes('AdminRipAlerts')) subscribed = true;
      }),
    );
    await signInAsAdmin(page, '/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await page.getByText('Total Users').waitFor();
    // The dashboard's live feed must be subscribed before the rip happens.
    await expect
      .poll(() => subscribed, { message: 'the dashboard subscribes to rip alerts', timeout: 10_000 })
      .toBe(true);
    expect(await page.getByText(listener.email).count()).toBe(0);
    // Gone if the page reloads: the alert must arrive without one.
    await page.evaluate(() => ((window as unknown as { openedOnce: boolean }).openedOnce = true));

    const alerts = page.getByRole('list', { name: 'Suspected ripping' });
    const alert = alerts.getByRole('listitem').filter({ hasText: listener.email });
    const ripper = await apiSignIn(listener.email, listener.password);
    const [pulled] = await Promise.all([
      pullWholeFile(ripper, book.id, size, 10_000),
      alert.waitFor({ timeout: 20_000 }),
    ]);
    // The script was slowed down: it did not get the whole book in ten seconds (unslowed it takes one).
    expect(new Set(pulled.statuses)).toEqual(new Set([206]));
    expect(pulled.ended).toBe(false);
    expect(pulled.received).toBeLessThan(size);

    expect(await page.evaluate(() => (window as unknown as { openedOnce?: boolean }).openedOnce)).toBe(true);
    expect(await page.getByRole('alert').filter({ hasText: 'Suspected ripping' }).isVisible()).toBe(true);
    // Newest first, with who, which rule in plain words, how fast, and that the account is not locked.
    expect(await alerts.getByRole('listitem').first().textContent()).toContain(listener.email);
    expect(await alert.textContent()).toContain('Fetched audio much faster than it plays');
    const speed = /(\d+\.\d)x real time over 60 s/.exec((await alert.textContent()) ?? '');
    // Flagged as the window passes four minutes of audio a minute, so it reads 4.0x or a little more.
    expect(Number(speed?.[1])).toBeGreaterThanOrEqual(4);
    expect(await alert.getByText('Throttled, not locked').isVisible()).toBe(true);
    await screenshot(page, 'rip-alerts-dashboard');

    await alert.getByRole('link', { name: listener.email }).click();
    await page.getByRole('heading', { name: 'Edit User' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/admin/users/edit/${listener.id}`);

    await page.goto('/admin/users');
    await page.getByRole('textbox', { name: 'Search users' }).fill(listener.email);
    const row = page.getByRole('row').filter({ hasText: listener.email });
    const flag = row.getByText('Rip suspected');
    await flag.waitFor();
    expect(await row.getByText('Active').isVisible()).toBe(true);
    expect(await row.locator('[title^="Suspected of ripping on "]').count()).toBe(1);
    await screenshot(page, 'rip-alerts-user-row');

    // On a phone the stacked row still shows the flag, and the dashboard's alert fits the screen.
    await page.setViewportSize(PHONE);
    expect(await onPhoneScreen(flag)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'rip-alerts-user-row-phone');
    await page.goto('/admin');
    await alert.waitFor();
    expect(await onPhoneScreen(alert)).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'rip-alerts-dashboard-phone');
    await context.close();
  });
});
