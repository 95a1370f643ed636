import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { libraryGrid, signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DESKTOP = { width: 1280, height: 860 };
const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [DESKTOP, PHONE];

/** The page's background as the listener sees it. */
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';
const DARK_BACKGROUND = 'rgb(18, 18, 18)';

/** Nothing runs off the right edge: the page does not scroll sideways. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function chooseTheme(page: Page, current: string, choice: string): Promise<void> {
  await page.getByRole('button', { name: `Theme: ${current}` }).click();
  await page.getByRole('menuitemradio', { name: choice }).click();
  await page.getByRole('button', { name: `Theme: ${choice}` }).waitFor();
}

describe('light and dark theme', () => {
  it('follows the system until a choice is made, and this browser remembers the choice', async () => {
    const { page, context } = await newDevice(browser);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await background(page)).toBe(DARK_BACKGROUND);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);

    // A choice beats the system, and outlives a reload.
    await chooseTheme(page, 'System', 'Dark');
    expect(await page.getByRole('menuitemradio', { name: 'Dark' }).count()).toBe(0);
    await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
    await page.reload();
    await page.getByRole('button', { name: 'Theme: Dark' }).waitFor();
    expect(await background(page)).toBe(DARK_BACKGROUND);

    // Back to the system's.
    await page.getByRole('button', { name: 'Theme: Dark' }).click();
    expect(await page.getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
    // Once the menu has finished fading in.
    const menuPaper = page.getByRole('menu').locator('..');
    await expect.poll(() => menuPaper.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    await screenshot(page, 'theme-menu-dark', { fullPage: false });
    await page.getByRole('menuitemradio', { name: 'System' }).click();
    await expect.poll(() => background(page)).toBe(LIGHT_BACKGROUND);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => background(page)).toBe(DARK_BACKGROUND);
    await context.close();
  });

  it('renders the library, the player and the mini-player in both themes at 1280 px and 390 px', async () => {
    const tag = Date.now().toString(36);
    const user = await createUser('Theme Listener');
    const file = await uploadAudio(`Evening Lecture ${tag}`, {
      seconds: 600,
      description: 'A ten-minute tone standing in for a lecture, with a square cover',
    });
    const bare = await uploadAudio(`Morning Notes ${tag}`, { seconds: 90, description: '' });
    await setCover(file.id, makeCover('teal', 600));
    for (const f of [file, bare]) await grantAccess(user.id, f.id);

    // One browser for every shot (a second device would trip the single-device lock): the
    // viewport and the system's scheme change in place.
    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    const setUp = async (scheme: 'light' | 'dark', size: { width: number; height: number }) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => background(page)).toBe(scheme === 'dark' ? DARK_BACKGROUND : LIGHT_BACKGROUND);
    };
    // The heading is there, the cover has been drawn (covers arrive after the page), and nothing
    // runs off the right edge.
    const rendered = async (heading: string) => {
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      const cover = page.getByRole('img', { name: file.title }).first();
      await expect
        .poll(() => cover.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)))
        .toBeGreaterThan(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    };

    for (const scheme of SCHEMES) {
      for (const size of WIDTHS) {
        await setUp(scheme, size);
        await rendered('My Audio Library');
        await screenshot(page, `library-${scheme}-${size.width}`);
      }
    }

    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(file.title) })
      .click();
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    const clock = page.getByRole('timer', { name: 'Playback time' });
    await expect.poll(async () => (await clock.textContent())?.startsWith('0:00'), { timeout: 15_000 }).toBe(false);
    const bar = page.getByRole('region', { name: 'Now playing' });
    for (const scheme of SCHEMES) {
      for (const size of WIDTHS) {
        await setUp(scheme, size);
        await rendered(file.title);
        await screenshot(page, `player-${scheme}-${size.width}`);

        await page.getByRole('button', { name: 'Back to Library' }).click();
        await bar.getByText(file.title).waitFor();
        await rendered('My Audio Library');
        // The bar stays inside the screen, its controls too.
        const box = (await bar.boundingBox())!;
        expect(box.x).toBe(0);
        expect(box.width).toBe(size.width);
        expect(await bar.getByRole('button', { name: 'Pause', exact: true }).isVisible()).toBe(true);
        await screenshot(page, `mini-player-${scheme}-${size.width}`, { fullPage: false });
        await bar.getByRole('button', { name: `Open player: ${file.title}` }).click();
        await page.getByText('Ready', { exact: true }).waitFor();
      }
    }
    await context.close();
  });
});
