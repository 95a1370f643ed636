import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
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

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

describe('admin: user sessions', () => {
  it("terminates a user's session and that browser is signed out", async () => {
    const listener = await createUser('Session Holder');
    const user = await newDevice(browser);
    await signInThroughUi(user.page, listener.email, listener.password);

    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page);
    await admin.page.goto(`/admin/users/edit/${listener.id}`);
    await admin.page.getByRole('heading', { name: 'Active Sessions' }).waitFor();
    const table = admin.page.getByRole('table', { name: 'Active Sessions' });
    await table.waitFor({ timeout: 5000 });
    await expect.poll(() => table.getByText('Just now').isVisible(), { timeout: 5000 }).toBe(true);
    await screenshot(admin.page, 'admin-user-sessions');

    await table
      .getByRole('button', { name: /^Terminate / })
      .first()
      .click();
    const dialog = admin.page.getByRole('dialog', { name: 'Terminate Session' });
    await dialog.waitFor();
    expect(await dialog.getByText(/^Device: .+/).isVisible()).toBe(true);
    expect(await dialog.getByText(/^IP Address: .+/).isVisible()).toBe(true);
    expect(await dialog.getByText('Last Activity: Just now').isVisible()).toBe(true);
    await screenshot(admin.page, 'admin-terminate-session-dialog');
    await dialog.getByRole('button', { name: 'Terminate' }).click();
    await expect.poll(visible(admin.page, 'Session terminated successfully'), { timeout: 5000 }).toBe(true);
    await expect.poll(visible(admin.page, 'No active sessions'), { timeout: 5000 }).toBe(true);

    // The server pushes the termination: the user's browser leaves for the sign-in screen by itself.
    await user.page.waitForURL('**/login', { timeout: 15_000 });
    await user.page.getByRole('button', { name: 'Sign In' }).waitFor();
    await screenshot(user.page, 'admin-terminated-user-signed-out');
    await user.context.close();
    await admin.context.close();
  });
});
