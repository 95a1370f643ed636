import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { makeAudio, makeCover } from './support/media';
import { launchBrowser, newDevice, screenshot } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visible = (page: Page, text: string | RegExp) => () => page.getByText(text).first().isVisible();
const audioInput = (page: Page) => page.getByLabel('Audio file', { exact: true });

describe('admin: upload audio', () => {
  it('uploads a file plainly with its details and cover', async () => {
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/files/upload');
    await page.getByRole('heading', { name: 'Upload Audio File' }).waitFor();
    expect(await page.getByText('Maximum file size: 2GB').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(visible(page, 'Please select a file to upload'), { timeout: 5000 }).toBe(true);

    await audioInput(page).setInputFiles(makeAudio(20));
    // The title defaults to the file name without its extension.
    await expect.poll(() => page.getByLabel(/^Title/).inputValue(), { timeout: 5000 }).toBe('tone-20s');
    expect(await page.getByLabel('Use Chunked Upload').isVisible()).toBe(true);
    await page.getByLabel(/^Title/).fill('');
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(visible(page, 'Please enter a title for the audio file'), { timeout: 5000 }).toBe(true);

    const title = `Plain upload ${randomUUID().slice(0, 6)}`;
    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel('Description').fill('Uploaded in one request');
    await page.getByLabel('Make this file public').check();
    await page.getByLabel('Cover image', { exact: true }).setInputFiles(makeCover('blue'));
    await page.getByRole('img', { name: 'Cover preview' }).waitFor();
    await page.getByLabel('Database Storage').check();
    await screenshot(page, 'admin-upload-plain');
    await page.getByRole('button', { name: 'Upload File' }).click();
    await expect.poll(visible(page, 'File uploaded successfully!'), { timeout: 5000 }).toBe(true);
    await page.waitForURL('**/admin/files');
    const row = page.getByRole('row').filter({ hasText: title });
    await row.waitFor();
    expect(await row.getByText('Public').isVisible()).toBe(true);
    await screenshot(page, 'admin-files');
    await context.close();
  });

  it('uploads in chunks with pause and resume, also after a reload, without fixed waits', async () => {
    const { page, context } = await newDevice(browser);
    // Slow each chunk down so there is time to pause mid-upload on a fast local server.
    await page.route('**/api/v1/audio/upload/chunk', async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue().catch(() => undefined);
    });
    const chunkRequests: number[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/audio/upload/chunk')) chunkRequests.push(Date.now());
    });
    await signInAsAdmin(page, '/admin/files/upload');
    const wav = makeAudio(70, 'wav', 'chunked-70s'); // about 12 MB: three 5 MB chunks
    await audioInput(page).setInputFiles(wav);
    await page.getByLabel('Use Chunked Upload').check();
    await expect.poll(visible(page, 'Chunk size: 5.00 MB'), { timeout: 5000 }).toBe(true);
    await expect.poll(visible(page, 'Chunks: 0/3 (0%)'), { timeout: 5000 }).toBe(true);
    await page.getByRole('button', { name: 'Complete Chunked Upload First' }).click();
    await expect
      .poll(visible(page, 'Please complete the chunked upload first or disable chunked upload mode.'), {
        timeout: 5000,
      })
      .toBe(true);

    const startedAt = Date.now();
    await page.getByRole('button', { name: 'Start Chunked Upload' }).click();
    await expect.poll(() => chunkRequests.length, { timeout: 5000 }).toBeGreaterThan(0);
    // Hashing 12 MB and init take well under the old 5 s settling wait.
    expect(chunkRequests[0] - startedAt).toBeLessThan(4000);
    await expect.poll(visible(page, 'Chunks: 1/3 (33%)'), { timeout: 15_000 }).toBe(true);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    await screenshot(page, 'admin-upload-chunked-paused');

    // A reload loses the page, not the upload: choosing the same file offers to resume it.
    await page.reload();
    await audioInput(page).setInputFiles(wav);
    await page.getByLabel('Use Chunked Upload').check();
    await expect
      .poll(visible(page, 'An unfinished upload of this file was found. Resume to send the remaining chunks.'), {
        timeout: 5000,
      })
      .toBe(true);
    await expect.poll(visible(page, /Chunks: [12]\/3/), { timeout: 5000 }).toBe(true);
    const requestsBeforeResume = chunkRequests.length;
    await screenshot(page, 'admin-upload-chunked-after-reload');
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(visible(page, 'Upload completed successfully!'), { timeout: 30_000 }).toBe(true);
    // Only the missing chunks were sent again.
    expect(chunkRequests.length - requestsBeforeResume).toBeLessThanOrEqual(2);
    await expect.poll(visible(page, 'Chunks: 3/3 (100%)'), { timeout: 5000 }).toBe(true);
    await screenshot(page, 'admin-upload-chunked-complete');

    const title = `Chunked upload ${randomUUID().slice(0, 6)}`;
    await page.getByLabel(/^Title/).fill(title);
    const finalizeAt = Date.now();
    await page.getByRole('button', { name: 'Complete Upload' }).click();
    await expect.poll(visible(page, 'File uploaded successfully using chunked upload!'), { timeout: 5000 }).toBe(true);
    expect(Date.now() - finalizeAt).toBeLessThan(3000);
    await page.waitForURL('**/admin/files');
    await page.getByRole('row').filter({ hasText: title }).waitFor();
    await context.close();
  });
});
