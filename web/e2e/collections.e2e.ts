import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { createUser } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Seconds on the left of the player's "m:ss / m:ss" clock. */
async function clockSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer', { name: 'Playback time' }).textContent()) ?? '';
  const [minutes, seconds] = text.split('/')[0].trim().split(':').map(Number);
  return minutes * 60 + seconds;
}

/** Opens a card of a shelf, plays it in the player and comes back to the library. */
async function playFromShelf(page: Page, shelf: string, title: string) {
  await page.getByRole('region', { name: shelf }).getByRole('button', { name: title }).first().click();
  await page.waitForURL('**/player/**');
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
  await page.getByText('Ready', { exact: true }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => clockSeconds(page), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByRole('button', { name: 'Back to Library' }).click();
  await page.getByRole('heading', { name: 'My Audio Library' }).waitFor();
}

async function noSeriousFindings(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze();
  const severe = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(severe, name).toEqual([]);
}

describe('collections and Want to listen', () => {
  it('an administrator fills and orders a collection; a listener plays from its shelf and from Want to listen', async () => {
    const stamp = Date.now().toString(36);
    const first = await uploadAudio(`Harbour tone ${stamp}`, { seconds: 20, description: 'The first of the set' });
    const second = await uploadAudio(`Lighthouse tone ${stamp}`, { seconds: 20, description: 'The second' });
    const hidden = await uploadAudio(`Hidden tone ${stamp}`, { seconds: 5 });
    await setCover(first.id, makeCover('navy', 600));
    const listener = await createUser('Shelf Listener');
    await grantAccess(listener.id, first.id);
    await grantAccess(listener.id, second.id);
    const name = `Sea stories ${stamp}`;

    // The administrator makes the collection from the dashboard and fills it.
    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page, '/admin');
    await admin.page.getByRole('button', { name: 'Collections' }).click();
    await admin.page.waitForURL('**/admin/collections');
    await admin.page.getByLabel('Name').fill(name);
    await admin.page.getByLabel('Description').fill('Tones of the sea');
    await admin.page.getByRole('button', { name: 'Create Collection' }).click();
    await admin.page.getByRole('heading', { name: `Edit ${name}` }).waitFor();
    for (const file of [first, second, hidden]) {
      await admin.page.getByLabel('Add a file').fill(file.title);
      await admin.page.getByRole('option', { name: file.title }).click();
      await admin.page.getByRole('list', { name: 'Files in order' }).getByText(file.title).waitFor();
    }
    // Lighthouse first: moved up one place.
    await admin.page.getByRole('button', { name: `Move ${second.title} up` }).click();
    const rows = admin.page.getByRole('list', { name: 'Files in order' }).getByRole('listitem');
    await expect.poll(() => rows.first().textContent()).toContain(second.title);
    await admin.page.reload();
    await expect.poll(() => rows.nth(1).textContent()).toContain(first.title);

    // The listener sees the collection through the two files they may see, in its order.
    const { page, context } = await newDevice(browser);
    await signIn(page, listener.email, listener.password);
    const shelf = page.getByRole('region', { name });
    const cards = shelf.getByRole('listitem');
    await expect.poll(() => cards.count(), { timeout: 15_000 }).toBe(2);
    expect(await cards.first().textContent()).toContain(second.title);
    expect(await shelf.textContent()).not.toContain(hidden.title);

    // Want to listen from the library card, then from the player.
    expect(await page.getByRole('region', { name: 'Want to listen' }).count()).toBe(0);
    await cards.nth(1).getByRole('button', { name: 'Want to listen', pressed: false }).click();
    const wanted = page.getByRole('region', { name: 'Want to listen' });
    await wanted.getByText(first.title).waitFor();
    await playFromShelf(page, 'Want to listen', first.title);
    await playFromShelf(page, name, second.title);

    await page.goto(`/player/${second.id}`);
    await page.getByRole('button', { name: 'Want to listen', pressed: false }).click();
    await page.getByRole('button', { name: 'Want to listen', pressed: true }).waitFor();
    await page.getByRole('button', { name: 'Back to Library' }).click();
    await expect.poll(() => wanted.getByRole('listitem').count()).toBe(2);
    expect(await wanted.getByRole('listitem').first().textContent()).toContain(second.title);

    // The collection page lists the same files, in order.
    await shelf.getByRole('link', { name: `See all of ${name}` }).click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByText('2 files').waitFor();
    await context.close();
    await admin.context.close();
  });

  it('shows the shelves, the collection page and the admin screen at 1280 and 390 px, light and dark, with no serious axe finding', async () => {
    const stamp = Date.now().toString(36);
    const files = [];
    for (const [i, color] of ['teal', 'maroon', 'olive'].entries()) {
      const file = await uploadAudio(`Shelf tone ${i + 1} ${stamp}`, { seconds: 10, description: `Tone ${i + 1}` });
      await setCover(file.id, makeCover(color, 600));
      files.push(file);
    }
    const admin = await newDevice(browser);
    await signInAsAdmin(admin.page, '/admin/collections');
    await admin.page.getByLabel('Name').fill(`Evening ${stamp}`);
    await admin.page.getByRole('button', { name: 'Create Collection' }).click();
    await admin.page.getByRole('heading', { name: `Edit Evening ${stamp}` }).waitFor();
    const editUrl = admin.page.url();
    for (const file of files) {
      await admin.page.getByLabel('Add a file').fill(file.title);
      await admin.page.getByRole('option', { name: file.title }).click();
      await admin.page.getByRole('list', { name: 'Files in order' }).getByText(file.title).waitFor();
    }
    const collectionId = editUrl.split('/').pop()!;
    const listener = await createUser('Screenshot Listener');
    for (const file of files) await grantAccess(listener.id, file.id);
    await admin.context.close();

    // One device each, signed in once (a second device would meet the single-device policy).
    const user = await newDevice(browser);
    await signIn(user.page, listener.email, listener.password);
    const adminView = await newDevice(browser);
    await signInAsAdmin(adminView.page);
    for (const scheme of ['light', 'dark'] as const) {
      for (const [label, viewport] of [
        ['1280', { width: 1280, height: 860 }],
        ['390', PHONE],
      ] as const) {
        for (const { page } of [user, adminView]) {
          await page.setViewportSize(viewport);
          await page.emulateMedia({ colorScheme: scheme });
        }
        await user.page.goto('/');
        const shelf = user.page.getByRole('region', { name: `Evening ${stamp}` });
        await shelf.getByText(files[0].title).waitFor({ timeout: 15_000 });
        const toggle = shelf.getByRole('listitem').first().getByRole('button', { name: 'Want to listen' });
        if ((await toggle.getAttribute('aria-pressed')) === 'false') await toggle.click();
        await user.page.getByRole('region', { name: 'Want to listen' }).getByText(files[0].title).waitFor();
        await screenshot(user.page, `library-shelves-${label}-${scheme}`);
        await noSeriousFindings(user.page, `library ${label} ${scheme}`);

        await user.page.goto(`/collections/${collectionId}`);
        await user.page.getByRole('heading', { name: `Evening ${stamp}`, level: 1 }).waitFor();
        await user.page.getByText('3 files').waitFor();
        await screenshot(user.page, `collection-page-${label}-${scheme}`);
        await noSeriousFindings(user.page, `collection ${label} ${scheme}`);

        await adminView.page.goto(`/admin/collections/${collectionId}`);
        await adminView.page.getByRole('list', { name: 'Files in order' }).getByText(files[2].title).waitFor();
        await screenshot(adminView.page, `admin-collection-${label}-${scheme}`);
        await noSeriousFindings(adminView.page, `admin collection ${label} ${scheme}`);
        await adminView.page.goto('/admin/collections');
        await adminView.page.getByRole('heading', { name: `Evening ${stamp}` }).waitFor();
        await screenshot(adminView.page, `admin-collections-${label}-${scheme}`);
        await noSeriousFindings(adminView.page, `admin collections ${label} ${scheme}`);
      }
    }
    await user.context.close();
    await adminView.context.close();
  }, 300_000);
});
