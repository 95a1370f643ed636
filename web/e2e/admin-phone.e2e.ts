import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { createUser } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, uploadAudio } from './support/media';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the whole of an element is inside the phone's screen width. */
async function onScreen(element: Locator): Promise<boolean> {
  const box = await element.boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
}

/** Nothing runs off the right edge: the page does not scroll sideways. */
const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('admin tables on a 390 px phone', () => {
  it('show every column of a row, Status, Sessions and the actions included', async () => {
    const listener = await createUser('Phone Listener');
    const title = `Phone ${randomUUID().slice(0, 6)}`;
    const { id: fileId } = await uploadAudio(title, { seconds: 5 });
    await grantAccess(listener.id, fileId);

    const { page, context } = await newDevice(browser, PHONE);
    await signInAsAdmin(page, '/admin/users');
    await page.getByRole('textbox', { name: 'Search users' }).fill(listener.email);
    const userRow = page.getByRole('row').filter({ hasText: listener.email });
    await userRow.waitFor();
    // Each value carries its column's name, since the header row is out of sight.
    const labels = await userRow
      .locator('td')
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    expect(labels).toEqual(['Name', 'Email', 'Role', 'Status', 'Sessions', 'Joined', 'Actions'].map((l) => `"${l}"`));
    expect(await onScreen(userRow.locator('td[data-label="Sessions"]'))).toBe(true);
    expect(await onScreen(userRow.getByText('Active'))).toBe(true);
    expect(await onScreen(userRow.getByRole('button', { name: `Delete ${listener.email}` }))).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-users-phone');

    await page.goto('/admin/files');
    await page.getByRole('textbox', { name: 'Search files' }).fill(title);
    const fileRow = page.getByRole('row').filter({ hasText: title });
    await fileRow.waitFor();
    expect(await onScreen(fileRow.getByText('Private'))).toBe(true);
    expect(await onScreen(fileRow.getByRole('button', { name: `Delete ${title}` }))).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-files-phone');

    await fileRow.getByRole('button', { name: `Manage Access ${title}` }).click();
    const grantRow = page.getByRole('row').filter({ hasText: listener.email });
    await grantRow.waitFor();
    expect(await onScreen(grantRow.getByText('Active'))).toBe(true);
    expect(await onScreen(grantRow.getByRole('button', { name: `Revoke ${listener.email}` }))).toBe(true);
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-access-phone');
    await context.close();
  });
});
