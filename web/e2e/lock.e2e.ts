import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { signInThroughUi } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LOCK_TEXT = /Your account has been locked because a login was attempted from another device/;

describe('single-device policy', () => {
  it('a second device locks the account and the first browser is signed out live', async () => {
    const user = await createUser();
    const first = await newDevice(browser);
    // The live feed must be subscribed before the second login happens.
    const subscribed = new Promise<void>((resolve) =>
      first.page.on('websocket', (ws) =>
        ws.on('framesent', (frame) => {
          if (String(frame.payload).includes('"subscribe"')) resolve();
        }),
      ),
    );
    await signInThroughUi(first.page, user.email, user.password);
    await subscribed;

    const second = await newDevice(browser);
    await second.page.goto('/login');
    await second.page.getByLabel('Email Address').fill(user.email);
    await second.page.getByLabel('Password', { exact: true }).fill(user.password);
    await second.page.getByRole('button', { name: 'Sign In' }).click();
    await second.page.getByText(LOCK_TEXT).waitFor();
    await screenshot(second.page, 'lock-second-device');

    // No reload, no click: the first browser leaves the library on its own.
    await first.page.waitForURL('**/login', { timeout: 15_000 });
    await first.page.getByText(LOCK_TEXT).waitFor();
    // The notice sits clear of the sign-in card, whose fields stay readable.
    const notice = await first.page.getByRole('alert').filter({ hasText: LOCK_TEXT }).boundingBox();
    const card = await first.page.getByRole('main').boundingBox();
    expect(notice && card && (notice.y >= card.y + card.height || notice.y + notice.height <= card.y)).toBe(true);
    await screenshot(first.page, 'lock-first-device-signed-out');

    // And the lock holds: signing in again from the first browser is refused.
    await first.page.getByLabel('Email Address').fill(user.email);
    await first.page.getByLabel('Password', { exact: true }).fill(user.password);
    await first.page.getByRole('button', { name: 'Sign In' }).click();
    await first.page.getByText(/Your account is locked/).waitFor();
    await first.context.close();
    await second.context.close();
  });
});
