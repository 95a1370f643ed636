import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { uploadAudio } from './support/media';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin: file management', () => {
  it('filters by status and deletes a file after confirmation', async () => {
    const tag = randomUUID().slice(0, 6);
    await uploadAudio(`Listed public ${tag}`, { seconds: 5, isPublic: true });
    await uploadAudio(`Listed private ${tag}`, { seconds: 5 });
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/files');
    await page.getByRole('textbox', { name: 'Search files' }).fill(tag);
    const rows = page.getByRole('row').filter({ hasText: tag });
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(2);

    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Private' }).click();
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(1);
    expect(await rows.first().getByText(`Listed private ${tag}`).isVisible()).toBe(true);
    await screenshot(page, 'admin-files-private');

    await rows
      .first()
      .getByRole('button', { name: `Delete Listed private ${tag}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete File' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('File deleted successfully').isVisible(), { timeout: 5000 }).toBe(true);
    await expect.poll(() => rows.count(), { timeout: 5000 }).toBe(0);
    // The message clears after 3 s.
    await expect.poll(() => page.getByText('File deleted successfully').isVisible(), { timeout: 6000 }).toBe(false);
    await context.close();
  });
});
