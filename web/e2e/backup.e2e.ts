import { readFileSync, statSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin: backups', () => {
  it('downloads a backup of the running library from the dashboard, as a file', async () => {
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin');
    await page.getByRole('heading', { name: 'Backups' }).waitFor();
    expect(await page.getByText('No scheduled backup has completed yet.').isVisible()).toBe(true);
    await screenshot(page, 'admin-dashboard-backups');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download a Backup' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pal-backup-\d{8}T\d{6}Z\.tar$/);
    const file = await download.path();
    // A tar whose first entry is the archive's header, and whose last is the manifest.
    expect(readFileSync(file).subarray(0, 11).toString()).toBe('backup.json');
    expect(statSync(file).size).toBeGreaterThan(10_000);
    expect(readFileSync(file).includes('manifest.json')).toBe(true);
    // The page stays where it was: the download went to a file, not into the page.
    expect(await page.getByRole('heading', { name: 'Admin Dashboard' }).isVisible()).toBe(true);
    await context.close();
  });
});
