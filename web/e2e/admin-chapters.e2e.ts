import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { makeLongAudio, uploadAudio } from './support/media';
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
  it("takes times as h:mm:ss, m:ss or seconds, says what is wrong, and ends a chapter at the next one's start", async () => {
    const { id: fileId } = await uploadAudio(`Long chapters ${randomUUID().slice(0, 6)}`, {
      audio: makeLongAudio(62),
    });
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, `/admin/files/edit/${fileId}`);
    await page.getByRole('heading', { name: 'Chapter Management' }).waitFor({ timeout: 10_000 });
    const add = async (label: string, start: string) => {
      await page.getByRole('button', { name: 'Add Chapter' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Chapter' });
      await dialog.getByLabel('Chapter Label').fill(label);
      await dialog.getByLabel('Start Time (h:mm:ss)').fill(start);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await add('Part one', '0:00:00');

    await page.getByRole('button', { name: 'Add Chapter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Chapter' });
    await dialog.getByLabel('Chapter Label').fill('Part two');
    const start = dialog.getByLabel('Start Time (h:mm:ss)');
    const end = dialog.getByLabel('End Time (h:mm:ss)');
    await start.fill('1:75:00');
    await end.click();
    await dialog.getByText('Minutes and seconds must be below 60').waitFor();
    await start.fill('soon');
    await dialog.getByText('Use h:mm:ss, m:ss or seconds, for example 1:02:03').waitFor();
    await start.fill('1:00:30');
    await end.fill('10:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('The end must be after the start').waitFor();
    await screenshot(page, 'admin-chapter-dialog-hms-errors');
    await end.fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const list = page.getByRole('list', { name: 'Chapters' });
    // No end of its own: the next chapter's start, not "End"; the last one runs to the end.
    await list.getByText('0:00 - 1:00:30').waitFor();
    await list.getByText('1:00:30 - End').waitFor();

    // Plain seconds work too; shown back as h:mm:ss.
    await add('Part three', '3650');
    await list.getByText('1:00:30 - 1:00:50').waitFor();
    await list.getByText('1:00:50 - End').waitFor();
    await page.getByRole('button', { name: 'Edit Part two' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Chapter' });
    expect(await edit.getByLabel('Start Time (h:mm:ss)').inputValue()).toBe('1:00:30');
    await screenshot(page, 'admin-chapter-dialog-hms');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });

  it('adds a chapter, loads samples, finalizes and plays a ready chapter', async () => {
    const { id: fileId } = await uploadAudio(`Chaptered ${randomUUID().slice(0, 6)}`, { seconds: 40 });
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, `/admin/files/edit/${fileId}`);
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
    await dialog.getByLabel('Start Time (h:mm:ss)').fill('0');
    await dialog.getByLabel('End Time (h:mm:ss)').fill('0:10');
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
