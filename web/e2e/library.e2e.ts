import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { recordPage } from './support/record';
import { libraryGrid, signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('library', () => {
  it('lists granted files and searches title and description case-insensitively', async () => {
    const tag = Date.now().toString(36);
    const user = await createUser();
    const ocean = await uploadAudio(`Ocean Waves ${tag}`, { seconds: 5, description: 'Calm ZEBRA sounds' });
    const forest = await uploadAudio(`Forest Birds ${tag}`, { seconds: 4 });
    for (const file of [ocean, forest]) await grantAccess(user.id, file.id);

    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    const card = (title: string) => libraryGrid(page).getByRole('button', { name: new RegExp(title) });
    await card(ocean.title).waitFor();
    await card(forest.title).waitFor();
    expect(await card(forest.title).getByText('No description').isVisible()).toBe(true);
    expect(await card(ocean.title).getByText('5s', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Upload New File' }).count()).toBe(0);
    await screenshot(page, 'library');

    const search = page.getByRole('textbox', { name: 'Search audio files' });
    await search.fill('zebra');
    await expect.poll(() => card(forest.title).count(), { timeout: 10_000 }).toBe(0);
    expect(await card(ocean.title).isVisible()).toBe(true);

    await search.fill(`forest birds ${tag}`.toUpperCase());
    await expect.poll(() => card(ocean.title).count(), { timeout: 10_000 }).toBe(0);
    expect(await card(forest.title).isVisible()).toBe(true);

    await search.fill(`no-such-title-${tag}`);
    await page.getByText('No matching audio files found').waitFor();
    await screenshot(page, 'library-no-match');

    await search.fill('');
    await card(ocean.title).click();
    await page.waitForURL(`**/player/${ocean.id}`);
    await context.close();
  });

  it('loads the next files as the end of the list scrolls into view, until all are shown', async () => {
    const tag = Date.now().toString(36);
    const user = await createUser();
    // More than one page (24 cards). Other test files add public files meanwhile, which every user
    // sees: the list is narrowed to these by a genre of their own, which the server pages like the
    // whole list, opened from the address.
    const titles = Array.from({ length: 30 }, (_, i) => `Shelf ${tag} ${String(i + 1).padStart(2, '0')}`);
    const genre = `Shelf genre ${tag}`;
    for (const title of titles) {
      const file = await uploadAudio(title, { seconds: 1 });
      await grantAccess(user.id, file.id);
      const tagged = await rest('PUT', `/admin/files/${file.id}/book`, { genres: [genre] }, await adminApi());
      expect(tagged.status).toBe(200);
    }

    const { page, context } = await newDevice(browser);
    const offsets: number[] = [];
    page.on('request', (request) => {
      const body = request.url().endsWith('/graphql')
        ? (request.postDataJSON() as Record<string, unknown> | null)
        : null;
      const variables = body?.variables as { offset: number; sort: string; limit: number } | undefined;
      // The grid's pages, not the "Recently added" shelf's short list.
      if (body?.operationName === 'AudioFiles' && variables?.limit === 24) offsets.push(variables.offset);
    });
    await signIn(page, user.email, user.password, `/?genre=${encodeURIComponent(genre)}`);
    const ours = libraryGrid(page).getByRole('button', { name: new RegExp(`Shelf ${tag}`) });
    await ours.first().waitFor();
    // Drawn a few at a time (useGradualCount): the whole first page, and only it, with one request.
    await expect.poll(() => ours.count(), { timeout: 20_000 }).toBe(24);
    expect(offsets.filter((offset) => offset !== 0)).toEqual([]);

    // The second page fails once: an error at the end of the list, and no retry loop.
    await page.route('**/graphql', async (route) => {
      const body = route.request().postDataJSON() as { operationName?: string; variables?: { offset?: number } } | null;
      if (body?.operationName === 'AudioFiles' && body.variables?.offset === 24) return route.abort();
      return route.fallback();
    });
    await page.mouse.wheel(0, 10_000);
    await page.getByText('Failed to fetch audio files').waitFor();
    await page.waitForTimeout(1000);
    expect(offsets.filter((offset) => offset === 24)).toHaveLength(1);
    expect(await ours.count()).toBe(24);
    await page.unrouteAll();

    // After a reload the list loads page after page on scrolling.
    await page.reload();
    await ours.first().waitFor();
    offsets.length = 0;
    for (let i = 0; i < 10 && (await ours.count()) < titles.length; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(300);
    }
    expect(await ours.count()).toBe(titles.length);
    expect(offsets).toContain(24);
    for (const title of titles) expect(await libraryGrid(page).getByRole('button', { name: title }).count()).toBe(1);
    await screenshot(page, 'library-scrolled');
    await context.close();
  });

  it('shows the newest files on a "Recently added" shelf above the grid, which is ordered by title', async () => {
    const tag = Date.now().toString(36);
    const user = await createUser();
    // Uploaded oldest first: Zither, then Anvil. The shelf shows Anvil first, the grid Zither last.
    const zither = await uploadAudio(`Zither ${tag}`, { seconds: 3 });
    const anvil = await uploadAudio(`Anvil ${tag}`, { seconds: 3 });
    for (const file of [zither, anvil]) await grantAccess(user.id, file.id);

    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    const shelf = page.getByRole('region', { name: 'Recently added' });
    const titlesIn = (region: typeof shelf) =>
      region.getByRole('button').getByRole('heading', { level: 2 }).allTextContents();
    const ours = (titles: string[]) => titles.filter((title) => title.endsWith(tag));
    await shelf.getByRole('button', { name: new RegExp(anvil.title) }).waitFor();
    // Other test files share this server: their files may sit between ours, never reorder them.
    expect(ours(await titlesIn(shelf))).toEqual([anvil.title, zither.title]);
    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(zither.title) })
      .waitFor();
    expect(ours(await titlesIn(libraryGrid(page)))).toEqual([anvil.title, zither.title].sort());
    await recordPage(page, 'library-recently-added', () => shelf.getByRole('button').first().waitFor());

    // Sorted newest first, the grid shows what the shelf did: the shelf goes, and comes back.
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Recently added' }).click();
    await expect.poll(() => shelf.count()).toBe(0);
    await expect.poll(async () => ours(await titlesIn(libraryGrid(page)))).toEqual([anvil.title, zither.title]);
    // The order is kept in the address: a reload keeps it, and the shelf stays away.
    await page.reload();
    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(zither.title) })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('sort')).toBe('RECENTLY_ADDED');
    expect(await shelf.count()).toBe(0);
    await page.getByRole('combobox', { name: 'Sort by' }).click();
    await page.getByRole('option', { name: 'Title' }).click();
    await shelf.waitFor();

    // A card on the shelf opens its player.
    await shelf.getByRole('button', { name: new RegExp(anvil.title) }).click();
    await page.waitForURL(`**/player/${anvil.id}`);
    await context.close();
  });

  it("asks for the first screen's lists and first cover once, before its code has loaded", async () => {
    const user = await createUser();
    const file = await uploadAudio(`Early cover ${Date.now().toString(36)}`, { seconds: 3 });
    await setCover(file.id, makeCover('teal'));
    await grantAccess(user.id, file.id);
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);

    // A new visit with the session stored: page-preload.js sends the requests as the page opens.
    const sent: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/graphql' && request.method() === 'POST') {
        const body = request.postDataJSON() as { operationName?: string; query: string; variables?: { sort?: string } };
        const name = body.operationName ?? /^query (\w+)/.exec(body.query)?.[1] ?? '?';
        sent.push(body.variables?.sort ? `${name} ${body.variables.sort}` : name);
      } else if (url.pathname.startsWith('/api/v1/files/cover/')) {
        sent.push('cover');
      }
    });
    await page.reload();
    const shelf = page.getByRole('region', { name: 'Recently added' });
    await expect
      .poll(() => shelf.getByRole('img', { name: file.title }).getAttribute('src'), { timeout: 10_000 })
      .toMatch(/^blob:/);
    await page.waitForLoadState('networkidle');

    // Each once: the app took page-preload's answers instead of asking again.
    expect(sent.sort()).toEqual(
      [
        'AudioFiles RECENTLY_ADDED',
        'AudioFiles TITLE',
        'CollectionShelves',
        'ContinueListening',
        'FinishedBooks',
        'LibraryFilterChoices',
        'Me',
        'WantToListen',
        'cover',
      ].sort(),
    );
    expect(await page.evaluate(() => window.__palEarly?.graphql.length)).toBe(0);
    await context.close();
  });

  it('says so when there are no files at all', async () => {
    const user = await createUser();
    const { page, context } = await newDevice(browser);
    // Other test files share this server and may have left public files, which every user sees:
    // the library's own answer is stubbed to the empty list this state is about.
    await page.route('**/graphql', async (route) => {
      const body = route.request().postDataJSON() as { operationName?: string } | null;
      if (body?.operationName !== 'AudioFiles') return route.fallback();
      await route.fulfill({ json: { data: { audioFiles: { __typename: 'AudioFilePage', total: 0, items: [] } } } });
    });
    await signIn(page, user.email, user.password);
    await page.getByText('No audio files available').waitFor();
    await screenshot(page, 'library-empty');
    await context.close();
  });
});
