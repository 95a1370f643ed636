import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('profile', () => {
  it('edits name and email inline, keeps them, and logs out after confirmation', async () => {
    const user = await createUser('Quinn Listener');
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    await page.getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
    expect(await page.getByText('Quinn Listener').isVisible()).toBe(true);
    expect(await page.getByText('Q', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(/^Member Since:/).isVisible()).toBe(true);
    expect(await page.getByText('Administrator').count()).toBe(0);
    await page.getByText('Active devices: 1').waitFor();
    expect(await page.getByRole('button', { name: 'Admin Dashboard' }).count()).toBe(0);
    await screenshot(page, 'profile');

    // Cancel leaves everything as it was.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Nobody');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByText('Quinn Listener').isVisible()).toBe(true);

    const newEmail = user.email.replace('listener-', 'renamed-');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Name').fill('Robin Renamed');
    await page.getByLabel('Email').fill(newEmail);
    await screenshot(page, 'profile-editing');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated successfully').waitFor();
    expect(await page.getByText('Robin Renamed').isVisible()).toBe(true);
    expect(await page.getByText('R', { exact: true }).isVisible()).toBe(true);

    await page.reload();
    await page.getByText('Robin Renamed').waitFor();
    expect(await page.getByText(newEmail).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Logout' }).click();
    const dialog = page.getByRole('dialog', { name: 'Logout' });
    await dialog.getByText('Are you sure you want to log out?').waitFor();
    await dialog.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/login');
    // Logging out on purpose is not a forced logout: no warning that the session was ended.
    await page.waitForTimeout(1000);
    expect(await page.getByText('You have been signed out.').count()).toBe(0);
    await page.goto('/profile');
    await page.waitForURL('**/login');
    await context.close();
  });
});
