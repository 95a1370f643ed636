import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { signInAsAdmin } from './support/admin';
import { libraryGrid, signIn } from './support/ui';

// Authors and series as a listener meets them: the library filtered by author, an author's page
// and a series' page reached from a card and from the player, each in both themes on a wide
// screen and a phone, with axe finding nothing serious or critical.

const reportDir = fileURLToPath(new URL('../../test-results/axe', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function severeFindings(page: Page, name: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(
    `${reportDir}/${name}.json`,
    JSON.stringify({ url: page.url(), violations: results.violations }, null, 2),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function setBook(fileId: string, book: Record<string, unknown>) {
  const res = await rest('PUT', `/admin/files/${fileId}/book`, book, await adminApi());
  if (res.status >= 300) throw new Error(`book update failed: ${JSON.stringify(res.body)}`);
}

/** A listener granted three books: two by one author in one series (positions 2 and 1), one by another. */
async function shelf() {
  const tag = Date.now().toString(36);
  const user = await createUser();
  const author = `Ada Writer ${tag}`;
  const series = `The Roads ${tag}`;
  const second = await uploadAudio(`The Long Road ${tag}`, { seconds: 3, description: 'The second walk' });
  const first = await uploadAudio(`The First Step ${tag}`, { seconds: 3, description: 'Where it begins' });
  const other = await uploadAudio(`Other Shores ${tag}`, { seconds: 3 });
  await setBook(second.id, {
    authors: [author],
    narrators: ['Nora Reader'],
    series,
    seriesPosition: '2',
    genres: ['Fiction'],
  });
  await setBook(first.id, { authors: [author], series, seriesPosition: '1', genres: ['Fiction'] });
  await setBook(other.id, { authors: [`Ben Other ${tag}`], genres: ['Travel'] });
  await setCover(first.id, makeCover('navy', 600));
  for (const file of [second, first, other]) await grantAccess(user.id, file.id);
  return { user, author, series, second, first, other };
}

/** An MP3 whose ID3 tags name a title, an author, a narrator, a series and its position, and a genre. */
function taggedMp3(tag: string): string {
  const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  const out = path.join(mkdtempSync(path.join(tmpdir(), 'pal-e2e-tags-')), 'tagged-book.mp3');
  const meta = {
    title: `Tagged Road ${tag}`,
    artist: `Tag Author ${tag}`,
    NARRATOR: 'Tag Narrator',
    SERIES: `Tag Series ${tag}`,
    'SERIES-PART': '3',
    genre: 'Adventure',
    date: '2020',
  };
  execFileSync(ffmpeg, [
    ...['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=3'],
    ...['-c:a', 'libmp3lame', '-id3v2_version', '3'],
    ...Object.entries(meta).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]),
    out,
  ]);
  return out;
}

describe('book details on upload and edit', () => {
  it('shows the tags read from the picked file, prefilled and editable, and stores what was sent', async () => {
    const tag = Date.now().toString(36);
    const { page, context } = await newDevice(browser);
    await signInAsAdmin(page, '/admin/files/upload');
    await page.getByLabel('Audio file', { exact: true }).setInputFiles(taggedMp3(tag));
    await page.getByText('Details below were read from the tags of tagged-book.mp3').waitFor();
    expect(await page.getByLabel(/^Title/).inputValue()).toBe(`Tagged Road ${tag}`);
    expect(await page.getByLabel('Authors').inputValue()).toBe(`Tag Author ${tag}`);
    expect(await page.getByLabel('Narrators').inputValue()).toBe('Tag Narrator');
    expect(await page.getByLabel('Series', { exact: true }).inputValue()).toBe(`Tag Series ${tag}`);
    expect(await page.getByLabel('Position in series').inputValue()).toBe('3');
    expect(await page.getByLabel('Year').inputValue()).toBe('2020');
    expect(await page.getByLabel('Genres').inputValue()).toBe('Adventure');
    // What the administrator types wins over the tag.
    await page.getByLabel('Narrators').fill('Typed Narrator; Tag Narrator');
    await screenshot(page, 'admin-upload-tags-read');
    await page.getByRole('button', { name: 'Upload File' }).click();
    await page.waitForURL('**/admin/files');

    const row = page.getByRole('row').filter({ hasText: `Tagged Road ${tag}` });
    await row.getByRole('button', { name: `Edit Tagged Road ${tag}` }).click();
    await page.getByRole('heading', { name: 'Book Details' }).waitFor();
    await expect
      .poll(() => page.getByLabel('Narrators').inputValue(), { timeout: 5000 })
      .toBe('Typed Narrator; Tag Narrator');
    expect(await page.getByLabel('Authors').inputValue()).toBe(`Tag Author ${tag}`);
    await page.getByLabel('Publisher').fill('Edited Press');
    await page.getByLabel('Position in series').fill('3.5');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('File updated successfully!').waitFor();
    const books = await rest<{ data: { name: string; bookCount: number }[] }>(
      'GET',
      `/series?search=${encodeURIComponent(`Tag Series ${tag}`)}`,
      undefined,
      await adminApi(),
    );
    expect(books.body.data).toMatchObject([{ name: `Tag Series ${tag}`, bookCount: 1 }]);
    await context.close();
  });
});

describe('authors and series', () => {
  it('filters the library by author, and opens the author page from a card', async () => {
    const s = await shelf();
    const { page, context } = await newDevice(browser);
    await signIn(page, s.user.email, s.user.password);
    const card = (title: string) => libraryGrid(page).getByRole('button', { name: new RegExp(title) });
    await card(s.other.title).waitFor();

    await page.getByRole('combobox', { name: 'Author' }).click();
    await page.getByRole('option', { name: `${s.author} (2)` }).click();
    await expect.poll(() => card(s.other.title).count(), { timeout: 10_000 }).toBe(0);
    expect(await card(s.first.title).isVisible()).toBe(true);
    expect(await card(s.second.title).isVisible()).toBe(true);
    expect(page.url()).toContain('authorId=');
    await screenshot(page, 'library-filtered-by-author');

    // The filter is in the address: a reload keeps it.
    await page.reload();
    await card(s.first.title).waitFor();
    expect(await card(s.other.title).count()).toBe(0);

    await page.getByRole('link', { name: s.author }).first().click();
    await page.waitForURL('**/authors/*');
    await page.getByRole('heading', { level: 1, name: s.author }).waitFor();
    const books = page.getByRole('region', { name: 'Books' });
    await books.getByRole('button', { name: new RegExp(s.first.title) }).waitFor();
    expect(await books.getByRole('button', { name: new RegExp(s.other.title) }).count()).toBe(0);
    await page.getByText('2 books written').waitFor();
    await context.close();
  });

  it('opens a series page from the player, with its books in order', async () => {
    const s = await shelf();
    const { page, context } = await newDevice(browser);
    await signIn(page, s.user.email, s.user.password, `/player/${s.second.id}`);
    await page.getByRole('heading', { level: 1, name: s.second.title }).waitFor();
    await page.getByText('Read by').waitFor();
    await page.getByRole('link', { name: `${s.series} #2` }).click();
    await page.waitForURL('**/series/*');
    await page.getByRole('heading', { level: 1, name: s.series }).waitFor();
    const order = page.getByRole('region', { name: 'Books in order' });
    await order.getByRole('button', { name: new RegExp(s.second.title) }).waitFor();
    const titles = await order.getByRole('button').getByRole('heading', { level: 2 }).allTextContents();
    expect(titles).toEqual([s.first.title, s.second.title]);
    expect(await order.getByText(/^Book \d/).allTextContents()).toEqual(['Book 1', 'Book 2']);
    await context.close();
  });

  it('shows a hidden author as not found', async () => {
    const s = await shelf();
    const stranger = await createUser();
    const authors = await rest<{ data: { id: string; name: string }[] }>(
      'GET',
      `/authors?search=${encodeURIComponent(s.author)}`,
      undefined,
      await adminApi(),
    );
    const { page, context } = await newDevice(browser);
    await signIn(page, stranger.email, stranger.password, `/authors/${authors.body.data[0].id}`);
    await page.getByText('Author not found').waitFor();
    await context.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`author and series pages at 1280 and 390 px in the ${scheme} theme: screenshots, nothing serious for axe`, async () => {
      const s = await shelf();
      const authors = await rest<{ data: { id: string }[] }>(
        'GET',
        `/authors?search=${encodeURIComponent(s.author)}`,
        undefined,
        await adminApi(),
      );
      const seriesList = await rest<{ data: { id: string }[] }>(
        'GET',
        `/series?search=${encodeURIComponent(s.series)}`,
        undefined,
        await adminApi(),
      );
      const found: Record<string, string[]> = {};
      // One device: a second one would meet the single-device policy.
      const { page, context } = await newDevice(browser);
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, s.user.email, s.user.password);
      for (const [size, viewport] of [
        ['1280', { width: 1280, height: 860 }],
        ['390', PHONE],
      ] as const) {
        await page.setViewportSize(viewport);
        await page.goto(`/authors/${authors.body.data[0].id}`);
        await page.getByRole('heading', { level: 1, name: s.author }).waitFor();
        await page.getByRole('img', { name: s.first.title }).waitFor();
        await screenshot(page, `author-${size}-${scheme}`);
        found[`author ${size}`] = await severeFindings(page, `author-${size}-${scheme}`);
        await page.goto(`/series/${seriesList.body.data[0].id}`);
        await page.getByRole('heading', { level: 1, name: s.series }).waitFor();
        await page.getByRole('img', { name: s.first.title }).waitFor();
        await screenshot(page, `series-${size}-${scheme}`);
        found[`series ${size}`] = await severeFindings(page, `series-${size}-${scheme}`);
      }
      await context.close();
      expect(found).toEqual({ 'author 1280': [], 'series 1280': [], 'author 390': [], 'series 390': [] });
    });
  }
});
