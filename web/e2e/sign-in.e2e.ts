import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('sign in with device approval', () => {
  it('shows validation messages without calling the server', async () => {
    const { page, context } = await newDevice(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Please enter both email and password').isVisible()).toBe(true);
    await page.getByLabel('Email Address').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Please enter a valid email address').isVisible()).toBe(true);
    await screenshot(page, 'login-validation');
    await context.close();
  });

  it('asks for approval on a new device; cancel discards, approve signs in to the library', async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    await page.goto('/devices');
    await page.waitForURL('**/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog', { name: 'Device Security Notice' });
    await dialog.waitFor();
    await screenshot(page, 'device-approval-modal');
    await dialog.getByRole('button', { name: 'Cancel Login' }).click();
    await expect
      .poll(() => page.getByText('Login cancelled. You can try logging in from another device.').isVisible())
      .toBe(true);

    await page.getByRole('button', { name: 'Sign In' }).click();
    await dialog.getByRole('button', { name: 'I Understand - Proceed' }).click();
    // The remembered destination: /devices.
    await page.waitForURL('**/devices');
    await context.close();
  });

  it('maps a wrong password to the spec message', async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    await page.goto('/login');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Invalid email or password').isVisible()).toBe(true);
    await context.close();
  });
});
