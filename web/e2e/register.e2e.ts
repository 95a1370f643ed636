import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('registration', () => {
  it('shows the Device Security Notice before the account opens a session on this device', async () => {
    const email = `new-${randomUUID().slice(0, 8)}@e2e.test`;
    const { page, context } = await newDevice(browser);
    await page.goto('/register');
    await page.getByLabel('Name').fill('New Listener');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-long-password');
    await page.getByRole('button', { name: 'Sign Up' }).click();

    const dialog = page.getByRole('dialog', { name: 'Device Security Notice' });
    await dialog.waitFor();
    await screenshot(page, 'register-device-notice');
    // Not approved yet: no session, so still on the sign-up page with nothing stored.
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await dialog.getByRole('button', { name: 'I Understand - Proceed' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByPlaceholder('Search audio files...').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
    await context.close();
  });
});
