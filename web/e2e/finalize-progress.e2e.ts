import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { adminApi, rest } from './support/api';
import { launchBrowser, newDevice } from './support/browser';
import { makeLongAudio, uploadAudio } from './support/media';
import { recordPage } from './support/record';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const LABEL = 'The whole tone';

/** The percent the chapter's progress bar shows now; null while it has none (queued, or done). */
async function shownPercent(page: Page): Promise<number | null> {
  const bar = page.getByRole('progressbar', { name: new RegExp(`^Finalizing ${LABEL}: \\d+%$`) });
  if ((await bar.count()) === 0) return null;
  const value = await bar.getAttribute('aria-valuenow');
  return value === null ? null : Number(value);
}

describe('admin: finalize runs in the background', () => {
  it('answers at once, shows the encoding live, survives a reload and ends with the spec message', async () => {
    // Thirty minutes of audio in one chapter: long enough to watch the encoder's figures move.
    const { id: fileId } = await uploadAudio(`Finalize live ${randomUUID().slice(0, 6)}`, {
      audio: makeLongAudio(30),
    });
    const api = await adminApi();
    const added = await rest(
      'POST',
      `/files/${fileId}/chapters`,
      { chapters: [{ label: LABEL, startTime: 0, endTime: null }] },
      api,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, `/admin/files/edit/${fileId}`);
    await page.getByText('Pending: 1').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Finalize Chapters' }).click();
    const confirm = page.getByRole('dialog', { name: 'Finalize Chapters' });
    const started = Date.now();
    await confirm.getByRole('button', { name: 'Finalize' }).click();

    // The request only queues the chapter: the screen says finalizing within moments.
    await page.getByText('Finalizing: 1').waitFor({ timeout: 5000 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await page.getByRole('button', { name: 'Finalizing...' }).isDisabled()).toBe(true);

    // Figures arrive over the subscription: at least two different ones, rising, before the end.
    const seen: number[] = [];
    await expect
      .poll(
        async () => {
          const percent = await shownPercent(page);
          if (percent !== null && percent !== seen.at(-1)) seen.push(percent);
          return new Set(seen.filter((p) => p > 0)).size;
        },
        { timeout: 90_000, interval: 100 },
      )
      .toBeGreaterThanOrEqual(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(await page.getByText(/^Successfully finalized/).count()).toBe(0);

    await recordPage(page, 'admin-chapters-finalizing', async () => {
      await page.getByRole('progressbar', { name: new RegExp(`^Finalizing ${LABEL}`) }).waitFor();
    });

    // A reload mid-way still shows it finalizing: the state is the server's, not the tab's.
    await page.reload();
    await page.getByText('Finalizing: 1').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Finalizing...' }).isDisabled()).toBe(true);
    await expect.poll(() => shownPercent(page), { timeout: 30_000, interval: 200 }).toBeGreaterThan(seen.at(-1)!);

    // The same tab that asked is told the outcome; this one was reloaded, so a second finalize
    // request from it is what shows the message: wait for ready here instead.
    await page.getByText('Ready: 1').waitFor({ timeout: 180_000 });
    expect(await page.getByText('Finalizing: 1').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Finalize Chapters' }).isDisabled()).toBe(true);
    await context.close();
  }, 300_000);

  it("tells the tab that asked 'Successfully finalized N chapters!' once the last chapter is ready", async () => {
    const { id: fileId } = await uploadAudio(`Finalize told ${randomUUID().slice(0, 6)}`, { seconds: 30 });
    const api = await adminApi();
    const added = await rest(
      'POST',
      `/files/${fileId}/chapters`,
      {
        chapters: [
          { label: 'First', startTime: 0, endTime: 12 },
          { label: 'Second', startTime: 12, endTime: null },
        ],
      },
      api,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, `/admin/files/edit/${fileId}`);
    await page.getByText('Pending: 2').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Finalize Chapters' }).click();
    await page.getByRole('dialog', { name: 'Finalize Chapters' }).getByRole('button', { name: 'Finalize' }).click();
    await page.getByText('Successfully finalized 2 chapters!').waitFor({ timeout: 60_000 });
    await page.getByText('Ready: 2').waitFor({ timeout: 5000 });
    await context.close();
  }, 120_000);
});
