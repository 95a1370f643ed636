import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, createUser } from './support/api';
import { signInThroughUi } from './support/ui';
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
    await page.getByText('Please enter both email and password').waitFor();
    await page.getByLabel('Email Address').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
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
    await page.getByText('Login cancelled. You can try logging in from another device.').waitFor();

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
    await page.getByText('Invalid email or password').waitFor();
    await context.close();
  });

  it('shows an admin the device warning on the sign-in screen with the way to the dashboard', async () => {
    const admin = await createAdmin();
    const { page, context } = await newDevice(browser);
    await page.goto('/login');
    await page.getByLabel('Email Address').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'I Understand - Proceed' }).click();
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();

    // Signed in with an unread warning, the sign-in screen shows the panel instead of the form.
    await page.goto('/login');
    await page.getByText('New Device Login').waitFor();
    await screenshot(page, 'login-signed-in-warnings');
    await page.getByRole('button', { name: 'Go to Admin Dashboard' }).click();
    await page.waitForURL('**/admin');
    await context.close();
  });

  it('signs in again on a known device with no warning and no new-device alert', async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    await signInThroughUi(page, user.email, user.password);
    // The first sign-in on this browser: approved, and announced as a new device.
    await page.getByText('New Device Login').waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');

    // The same browser holds its device-proof cookie: straight in, nothing to approve or dismiss.
    let warned = false;
    page.on('dialog', () => (warned = true));
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Device Security Notice' }).count()).toBe(0);
    expect(await page.getByText(/permanently lock/).count()).toBe(0);
    expect(await page.getByText('New Device Login').count()).toBe(0);
    expect(warned).toBe(false);
    await screenshot(page, 'known-device-sign-in');
    await context.close();
  });
});
