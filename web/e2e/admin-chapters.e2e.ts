import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
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

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

describe('admin: chapters', () => {
  it('adds a chapter, loads samples, finalizes and plays a ready chapter', async () => {
    const { id: fileId } = await uploadAudio(`Chaptered ${randomUUID().slice(0, 6)}`, { seconds: 40 });
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page);
    await page.goto(`/admin/files/edit/${fileId}`);
    await page.getByRole('heading', { name: 'Chapter Management' }).waitFor({ timeout: 10_000 });
    await expect
      .poll(visible(page, 'No chapters defined. Add chapters to enable segmented streaming.'), { timeout: 5000 })
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Finalize Chapters' }).isDisabled()).toBe(true);
    expect(await page.getByRole('combobox', { name: 'Chapter Storage' }).textContent()).toBe('Filesystem');
    // At 1280 px the toolbar is one row of one-line controls.
    const toolbar = await Promise.all(
      [
        page.getByRole('combobox', { name: 'Chapter Storage' }),
        page.getByRole('button', { name: 'Finalize Chapters' }),
        page.getByRole('button', { name: 'Load Sample Chapters' }),
        page.getByRole('button', { name: 'Add Chapter' }),
      ].map((control) => control.boundingBox()),
    );
    const middles = toolbar.map((box) => Math.round((box?.y ?? 0) + (box?.height ?? 0) / 2));
    expect(new Set(middles).size, JSON.stringify(toolbar)).toBe(1);
    expect(Math.max(...toolbar.slice(1).map((box) => box?.height ?? 0))).toBeLessThan(40);

    await page.getByRole('button', { name: 'Add Chapter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Chapter' });
    await dialog.getByLabel('Chapter Label').fill('Opening');
    await dialog.getByLabel('Start Time (seconds)').fill('0');
    await dialog.getByLabel('End Time (seconds)').fill('10');
    await screenshot(page, 'admin-chapter-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(visible(page, 'Chapter added successfully'), { timeout: 5000 }).toBe(true);
    await expect.poll(visible(page, 'Pending: 1'), { timeout: 5000 }).toBe(true);
    await expect.poll(visible(page, '0:00 - 0:10'), { timeout: 5000 }).toBe(true);

    // Samples go onto a file without chapters: remove the one just added first.
    await page.getByRole('button', { name: 'Delete Opening' }).click();
    await page.getByRole('dialog', { name: 'Delete Chapter' }).getByRole('button', { name: 'Delete' }).click();
    await expect.poll(visible(page, 'Chapter deleted successfully'), { timeout: 5000 }).toBe(true);
    await page.getByRole('button', { name: 'Load Sample Chapters' }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Chapters' }).getByRole('listitem').count(), { timeout: 5000 })
      .toBeGreaterThan(1);
    const count = await page.getByRole('list', { name: 'Chapters' }).getByRole('listitem').count();
    await expect.poll(visible(page, `Pending: ${count}`), { timeout: 5000 }).toBe(true);
    await screenshot(page, 'admin-chapters-pending');

    await page.getByRole('button', { name: 'Finalize Chapters' }).click();
    const confirm = page.getByRole('dialog', { name: 'Finalize Chapters' });
    expect(
      await confirm
        .getByText('This will process and encrypt all pending chapters. This operation cannot be undone. Continue?')
        .isVisible(),
    ).toBe(true);
    await confirm.getByRole('button', { name: 'Finalize' }).click();
    await expect.poll(visible(page, `Successfully finalized ${count} chapters!`), { timeout: 60_000 }).toBe(true);
    await expect.poll(visible(page, `Ready: ${count}`), { timeout: 5000 }).toBe(true);
    expect(await page.getByRole('button', { name: 'Finalize Chapters' }).isDisabled()).toBe(true);
    await expect.poll(visible(page, /Encrypted: /), { timeout: 5000 }).toBe(true);

    const firstPlay = page
      .getByRole('list', { name: 'Chapters' })
      .getByRole('button', { name: /^Play / })
      .first();
    await firstPlay.click();
    await expect.poll(visible(page, /^Playing: /), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() => page.getByText(/^Playing: .*\((\d+)s\)$/).textContent(), { timeout: 10_000 })
      .toMatch(/\(([1-9]\d*)s\)$/);
    await screenshot(page, 'admin-chapters-playing');

    // No stream URL to be had: the admin list names the chapter (the player page gives the reason).
    await page.route('**/chapters/*/stream-url', (route) =>
      route.fulfill({ status: 500, json: { success: false, message: 'Stream URLs are down' } }),
    );
    const label = (await firstPlay.getAttribute('aria-label'))!.replace(/^Play /, '');
    await firstPlay.click();
    await expect.poll(visible(page, `Failed to play chapter: ${label}`), { timeout: 10_000 }).toBe(true);
    await context.close();
  });
});
