import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { adminApi, rest } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { makeBookPart } from './support/media';

const reportDir = fileURLToPath(new URL('../../test-results/axe', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const album = `The Four Doors ${Date.now().toString(36)}`;
/** Track order: the file names alone would put "Doors 10" last and "Doors 9" before it. */
const parts = [
  { name: 'Doors 9', title: 'The Red Door', track: 1, seconds: 3 },
  { name: 'Doors 10', title: 'The Green Door', track: 2, seconds: 2 },
  { name: 'Doors 2', title: 'The Blue Door', track: 3, seconds: 3 },
  { name: 'Doors 1', title: 'The Last Door', track: 4, seconds: 2 },
].map((p) => ({ ...p, path: makeBookPart(p.name, p.seconds, { title: p.title, track: p.track, album }) }));

const listed = (page: Page) =>
  page
    .getByRole('list', { name: 'Parts in join order' })
    .getByRole('listitem')
    .evaluateAll((items) => items.map((item) => item.querySelector('.MuiListItemText-primary')?.textContent ?? ''));

/** axe on the book upload form: what is serious or critical (all findings are saved as JSON). */
async function severeFindings(page: Page, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('form').analyze();
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(`${reportDir}/${name}.json`, JSON.stringify(results.violations, null, 2));
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('admin: a book in several files', () => {
  it('lists dropped parts in track order, lets the order be changed, and uploads them as one book', async () => {
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/files/upload');
    await page.getByRole('heading', { name: 'Upload Audio File' }).waitFor();
    // Chosen shuffled; listed by track number.
    await page.getByLabel('Audio file', { exact: true }).setInputFiles([3, 0, 2, 1].map((i) => parts[i].path));
    await page.getByRole('heading', { name: 'One book from 4 parts' }).waitFor();
    expect(await listed(page)).toEqual(parts.map((p) => p.title));
    expect(await page.getByLabel('Title').inputValue()).toBe(album);
    expect(await page.getByText('Doors 10.mp3 · Track 2').isVisible()).toBe(true);

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [size, viewport] of [
        ['1280', { width: 1280, height: 860 }],
        ['390', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await screenshot(page, `admin-book-upload-${size}-${scheme}`);
      }
      expect(await severeFindings(page, `admin-book-upload-${scheme}`)).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 860 });

    // The administrator knows better: the last door goes before the blue one.
    await page.getByRole('button', { name: 'Move The Last Door up' }).click();
    const order = ['The Red Door', 'The Green Door', 'The Last Door', 'The Blue Door'];
    expect(await listed(page)).toEqual(order);
    expect(await page.getByRole('button', { name: 'Move The Red Door up' }).isDisabled()).toBe(true);

    await page.getByRole('button', { name: 'Upload Book' }).click();
    await page.getByText('Book uploaded successfully!').waitFor({ timeout: 30_000 });
    await page.waitForURL('**/admin/files');
    await page.getByRole('row').filter({ hasText: album }).waitFor();

    const admin = await adminApi();
    const files = await rest<{ data: { id: string; title: string; duration: number }[] }>(
      'GET',
      `/admin/files?search=${encodeURIComponent(album)}`,
      undefined,
      admin,
    );
    const book = files.body.data.find((f) => f.title === album)!;
    expect(book.duration).toBeGreaterThan(9.5);
    const chapters = await rest<{ data: { label: string; startTime: number }[] }>(
      'GET',
      `/files/${book.id}/chapters`,
      undefined,
      admin,
    );
    expect(chapters.body.data.map((c) => c.label)).toEqual(order);
    expect(chapters.body.data[2].startTime).toBeCloseTo(5, 0);
    await context.close();
  });

  it('after a failed join, Retry Upload joins again without sending the parts again', async () => {
    const { page, context } = await newDevice(browser);
    const chunks: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/audio/upload/chunk')) chunks.push(request.url());
    });
    // The first join fails as the server answers a failed join; the parts stay on the server.
    let joins = 0;
    await page.route('**/graphql', async (route) => {
      if (!route.request().postData()?.includes('joinBookUpload') || ++joins > 1) return route.continue();
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          data: null,
          errors: [
            {
              message: 'The parts could not be joined (disk hiccup); they are kept, so the join can be tried again',
              extensions: { code: 'BAD_USER_INPUT' },
            },
          ],
        }),
      });
    });
    await signInAsAdmin(page, '/admin/files/upload');
    await page.getByLabel('Audio file', { exact: true }).setInputFiles([parts[1].path, parts[0].path]);
    await page.getByRole('heading', { name: 'One book from 2 parts' }).waitFor();
    const title = `Retried ${album}`;
    await page.getByLabel('Title').fill(title);
    await page.getByRole('button', { name: 'Upload Book' }).click();
    await page.getByText(/The parts could not be joined \(disk hiccup\)/).waitFor({ timeout: 30_000 });
    expect(chunks).toHaveLength(2);

    await page.getByRole('button', { name: 'Retry Upload' }).click();
    await page.getByText('Book uploaded successfully!').waitFor({ timeout: 30_000 });
    expect(joins).toBe(2);
    expect(chunks).toHaveLength(2);
    await page.waitForURL('**/admin/files');
    await page.getByRole('row').filter({ hasText: title }).waitFor();
    await context.close();
  });
});
