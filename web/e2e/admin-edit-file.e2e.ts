import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { makeCover, uploadAudio } from './support/media';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();

describe('admin: edit a file', () => {
  it('changes the details, the public flag and the cover', async () => {
    const title = `Editable ${randomUUID().slice(0, 6)}`;
    await uploadAudio(title, { seconds: 12 });
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/files');
    await page.getByRole('textbox', { name: 'Search files' }).fill(title);
    const row = page.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.getByText('Private').isVisible()).toBe(true);
    await row.getByRole('button', { name: `Edit ${title}` }).click();

    await page.getByRole('heading', { name: 'Edit File' }).waitFor();
    await expect.poll(() => page.getByLabel(/^Title/).inputValue(), { timeout: 5000 }).toBe(title);
    expect(await page.getByText('File Information').isVisible()).toBe(true);
    expect(await page.getByText('audio/mpeg').isVisible()).toBe(true);
    // No cover yet: the storage choice is offered.
    expect(await page.getByRole('radiogroup', { name: 'Cover Image Storage' }).isVisible()).toBe(true);
    await page.getByLabel('Audio preview').waitFor();
    await expect
      .poll(() => page.getByLabel('Audio preview').evaluate((a: HTMLAudioElement) => a.readyState), { timeout: 10_000 })
      .toBeGreaterThan(0);

    // A blank title is refused; the alert goes as soon as the title is typed again.
    await page.getByLabel(/^Title/).fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(visible(page, 'Please enter a title for the audio file'), { timeout: 5000 }).toBe(true);
    const renamed = `${title} renamed`;
    await page.getByLabel(/^Title/).fill(renamed);
    expect(await page.getByText('Please enter a title for the audio file').count()).toBe(0);
    await page.getByLabel('Description').fill('A calmer description');
    await page.getByLabel('Public', { exact: true }).check();
    await page.getByLabel('Cover image', { exact: true }).setInputFiles(makeCover('green'));
    await page.getByRole('img', { name: 'Cover preview' }).waitFor();
    await page.getByLabel('Database Storage').check();
    await screenshot(page, 'admin-edit-file');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(visible(page, 'File updated successfully!'), { timeout: 5000 }).toBe(true);
    await page.waitForURL('**/admin/files', { timeout: 5000 });

    await page.getByRole('textbox', { name: 'Search files' }).fill(renamed);
    const renamedRow = page.getByRole('row').filter({ hasText: renamed });
    await renamedRow.waitFor();
    expect(await renamedRow.getByText('Public').isVisible()).toBe(true);
    await renamedRow.getByRole('button', { name: `Edit ${renamed}` }).click();
    // The cover is now there: it shows, and the storage choice is hidden until a new one is picked.
    await page.getByRole('img', { name: 'Cover preview' }).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Cover Image Storage' }).count()).toBe(0);
    expect(await page.getByLabel('Description').inputValue()).toBe('A calmer description');
    await page.getByRole('button', { name: 'Remove Cover' }).click();
    await page.getByRole('radiogroup', { name: 'Cover Image Storage' }).waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(visible(page, 'File updated successfully!'), { timeout: 5000 }).toBe(true);
    await screenshot(page, 'admin-edit-file-cover-removed');
    await context.close();
  });

  it("shows 'File not found' for a missing file or an id that is not one", async () => {
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, `/admin/files/edit/${randomUUID()}`);
    await expect.poll(visible(page, 'File not found'), { timeout: 5000 }).toBe(true);
    // An address that holds no valid id at all names no file either.
    await page.goto('/admin/files/edit/not-a-file-id');
    await expect.poll(visible(page, 'File not found'), { timeout: 5000 }).toBe(true);
    await context.close();
  });
});
