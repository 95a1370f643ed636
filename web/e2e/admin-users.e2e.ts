import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { createUser } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { ADMIN_EMAIL } from './support/constants';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

async function findUser(page: Page, email: string) {
  await page.getByRole('textbox', { name: 'Search users' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.waitFor();
  return row;
}

describe('admin: user management', () => {
  it('creates, edits, locks, unlocks and deletes a user; an administrator cannot be deleted', async () => {
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin');
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await expect.poll(visible(page, 'Total Users'), { timeout: 5000 }).toBe(true);
    await expect.poll(visible(page, 'Storage Used'), { timeout: 5000 }).toBe(true);
    expect(await page.getByRole('button', { name: 'View Analytics' }).isDisabled()).toBe(true);
    await screenshot(page, 'admin-dashboard');

    await page.getByRole('button', { name: 'Create New User' }).click();
    await page.getByRole('heading', { name: 'Create User' }).waitFor();
    const email = `managed-${randomUUID().slice(0, 8)}@e2e.test`;
    await page.getByLabel('Name').fill('Managed Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a-long-password');
    await screenshot(page, 'admin-create-user');
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect.poll(visible(page, 'User created successfully!'), { timeout: 5000 }).toBe(true);
    await page.waitForURL('**/admin/users');

    let row = await findUser(page, email);
    expect(await row.getByText('Active').isVisible()).toBe(true);
    await screenshot(page, 'admin-users');
    await row.getByRole('button', { name: `Edit ${email}` }).click();
    await page.getByRole('heading', { name: 'Edit User' }).waitFor();
    await expect.poll(() => page.getByLabel('Name').inputValue(), { timeout: 5000 }).toBe('Managed Person');
    await page.getByLabel('Name').fill('Renamed Person');
    await page.getByLabel('Lock User Account').check();
    await expect.poll(visible(page, 'No active sessions'), { timeout: 5000 }).toBe(true);
    await screenshot(page, 'admin-edit-user');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(visible(page, 'User updated successfully!'), { timeout: 5000 }).toBe(true);
    await page.waitForURL('**/admin/users');

    row = await findUser(page, email);
    await expect.poll(() => row.getByText('Renamed Person').isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(() => row.getByText('Locked').isVisible(), { timeout: 5000 }).toBe(true);
    await row.getByRole('button', { name: `Unlock ${email}` }).click();
    await expect.poll(visible(page, `User ${email} has been unlocked successfully`), { timeout: 5000 }).toBe(true);
    await expect.poll(() => row.getByText('Active').isVisible(), { timeout: 5000 }).toBe(true);
    // The unlock message clears itself after 5 s.
    await expect.poll(visible(page, `User ${email} has been unlocked successfully`), { timeout: 8000 }).toBe(false);

    await row.getByRole('button', { name: `Delete ${email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete User' });
    await dialog.waitFor();
    await screenshot(page, 'admin-delete-user-dialog');
    // Cancelled, it keeps naming the user while it fades out (it read "the user ?" then).
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { dialogTexts: string[] }).dialogTexts = seen;
      new MutationObserver(() => {
        const text = document.getElementById('confirm-dialog-message')?.textContent;
        if (text !== undefined && text !== null) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const texts = await page.evaluate(() => (window as unknown as { dialogTexts: string[] }).dialogTexts);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((text) => !text.includes(email))).toEqual([]);
    await row.getByRole('button', { name: `Delete ${email}` }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(visible(page, `User ${email} has been deleted successfully`), { timeout: 5000 }).toBe(true);
    await expect.poll(() => page.getByRole('row').filter({ hasText: email }).count(), { timeout: 5000 }).toBe(0);

    const adminRow = await findUser(page, ADMIN_EMAIL);
    expect(await adminRow.getByRole('button', { name: `Delete ${ADMIN_EMAIL}` }).isDisabled()).toBe(true);
    await context.close();
  });

  it('pages through users with the server (5, 10, 25 rows)', async () => {
    // Enough users that 5 rows cannot hold them all.
    await Promise.all(Array.from({ length: 6 }, () => createUser('Paged Listener')));
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/users');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    await page.getByRole('combobox', { name: /rows per page/i }).click();
    const options = await page.getByRole('option').allTextContents();
    expect(options).toEqual(['5', '10', '25']);
    await page.getByRole('option', { name: '5', exact: true }).click();
    // Header row plus five.
    await expect.poll(() => page.getByRole('row').count(), { timeout: 5000 }).toBe(6);
    await expect.poll(visible(page, /^1–5 of \d+$/), { timeout: 5000 }).toBe(true);
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(visible(page, /^6–\d+ of \d+$/), { timeout: 5000 }).toBe(true);
    await screenshot(page, 'admin-users-paged');
    await context.close();
  });
});
