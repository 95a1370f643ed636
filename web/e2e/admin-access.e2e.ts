import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { uploadAudio } from './support/media';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

/** datetime-local value for a moment from now, in the browser's (and this machine's) zone. */
function localDateTime(msFromNow: number): string {
  const d = new Date(Date.now() + msFromNow);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

describe('admin: manage access', () => {
  it("grants access with an expiry (the user's library gains the file), then revokes it (the open player stops)", async () => {
    const title = `Private ${randomUUID().slice(0, 6)}`;
    const { id: fileId } = await uploadAudio(title, { seconds: 30 });
    const listener = await createUser('Granted Listener');

    const user = await newDevice(browser);
    await signIn(user.page, listener.email, listener.password);
    await user.page.getByRole('textbox').first().waitFor();
    await expect.poll(() => user.page.getByText(title).count(), { timeout: 3000 }).toBe(0);

    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page, `/admin/files/${fileId}/access`);
    await admin.page.getByRole('heading', { name: 'Manage Access' }).waitFor();
    await admin.page.getByRole('button', { name: 'Grant Access' }).click();
    await expect.poll(visible(admin.page, 'Please select a user'), { timeout: 5000 }).toBe(true);
    // Typing searches the users without access on the server.
    await admin.page.getByRole('combobox', { name: 'Select User' }).fill(listener.email);
    await admin.page.getByRole('option', { name: new RegExp(listener.email) }).click();
    // Choosing a user answers the alert: it goes at once.
    await expect.poll(visible(admin.page, 'Please select a user'), { timeout: 5000 }).toBe(false);
    await admin.page.getByLabel('Expires At (optional)').fill(localDateTime(2 * 24 * 3600 * 1000));
    await admin.page.getByRole('button', { name: 'Grant Access' }).click();
    await expect.poll(visible(admin.page, 'Access granted successfully'), { timeout: 5000 }).toBe(true);
    const grantRow = admin.page.getByRole('row').filter({ hasText: listener.email });
    await grantRow.waitFor();
    expect(await grantRow.getByText('Active').isVisible()).toBe(true);
    expect(await grantRow.getByText('Never').count()).toBe(0);
    await screenshot(admin.page, 'admin-access-granted');

    // The user's library now lists the file; they open it and play.
    await user.page.reload();
    // Search, so the file is on the first page however many public files other tests made.
    await user.page.getByPlaceholder('Search audio files...').fill(title);
    try {
      await user.page.getByText(title).waitFor({ timeout: 15_000 });
    } finally {
      await screenshot(user.page, 'admin-access-user-library');
    }
    await user.page.goto(`/player/${fileId}`);
    await user.page.getByText('Ready', { exact: true }).waitFor({ timeout: 15_000 });
    await user.page.getByRole('button', { name: 'Play', exact: true }).click();
    const audio = user.page.locator('audio').first();
    await expect
      .poll(() => audio.evaluate((a: HTMLAudioElement) => !a.paused && a.currentTime > 0), { timeout: 10_000 })
      .toBe(true);

    await grantRow.getByRole('button', { name: `Revoke ${listener.email}` }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Revoke Access' });
    await dialog.waitFor();
    await screenshot(admin.page, 'admin-access-revoke-dialog');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(visible(admin.page, 'Access revoked successfully'), { timeout: 5000 }).toBe(true);
    await expect.poll(() => grantRow.getByText('Revoked').isVisible(), { timeout: 5000 }).toBe(true);
    // The user can be granted again: they are offered once more.
    await admin.page.getByRole('combobox', { name: 'Select User' }).fill(listener.email);
    // The choices are asked of the server again when a grant ends: wait for its answer.
    await admin.page.getByRole('option', { name: new RegExp(listener.email) }).waitFor({ timeout: 5000 });
    await admin.page.keyboard.press('Escape');

    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => user.page.getByText('Ready', { exact: true }).isVisible(), { timeout: 5000 }).toBe(false);
    await expect
      .poll(
        () => user.page.getByRole('alert').filter({ hasText: 'Your access to this file has been revoked.' }).count(),
        {
          timeout: 5000,
        },
      )
      .toBeGreaterThan(0);
    await screenshot(user.page, 'admin-access-revoked-player');
    await user.context.close();
    await admin.context.close();
  });

  it('turns a grant to Expired when its expiry passes while the page is open', async () => {
    const { id: fileId } = await uploadAudio(`Timed ${randomUUID().slice(0, 6)}`, { seconds: 5 });
    const listener = await createUser('Timed Listener');
    // Signed in before the grant starts its clock: signing in must not use up the grant's seconds.
    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page);
    const expiresAt = new Date(Date.now() + 8000).toISOString();
    const granted = await rest(
      'POST',
      '/admin/file-access',
      { userId: listener.id, fileId, expiresAt },
      await adminApi(),
    );
    expect(granted.status, JSON.stringify(granted.body)).toBeLessThan(300);

    await admin.page.goto(`/admin/files/${fileId}/access`);
    const grantRow = admin.page.getByRole('row').filter({ hasText: listener.email });
    await grantRow.getByText('Active').waitFor();
    expect(await grantRow.getByRole('button', { name: `Revoke ${listener.email}` }).isVisible()).toBe(true);

    // No reload: the page itself notices the moment pass.
    await grantRow.getByText('Expired').waitFor({ timeout: 15_000 });
    expect(await grantRow.getByRole('button', { name: `Revoke ${listener.email}` }).count()).toBe(0);
    await admin.page.getByRole('combobox', { name: 'Select User' }).fill(listener.email);
    // The choices are asked of the server again when a grant ends: wait for its answer.
    await admin.page.getByRole('option', { name: new RegExp(listener.email) }).waitFor({ timeout: 5000 });
    await admin.page.keyboard.press('Escape');
    await admin.context.close();
  });
});
