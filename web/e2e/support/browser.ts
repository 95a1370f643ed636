import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

const screenshotDir = fileURLToPath(new URL('../../../test-results/screenshots', import.meta.url));

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell), else its full Chromium.
 * The shell is the same engine without the browser's windowing: the browser tier took 508 s on it
 * against 628 s on the full browser, which runs headless as a whole browser with no window.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** Debian's Chromium with the flags that work on these machines; never a downloaded browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
    headless: true,
  });
}

export const baseUrl = (): string => {
  const urls = inject('baseUrls');
  // The worker's number, 1 to maxWorkers: files running together never share a server.
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  return urls[(worker - 1) % urls.length];
};

/** A phone's screen (an iPhone 14's CSS pixels), for the layouts that must work there. */
export const PHONE = { width: 390, height: 844 };

/** A fresh browser profile: its own local storage, so its own device id. */
export async function newDevice(
  browser: Browser,
  viewport = { width: 1280, height: 860 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport });
  const page = await context.newPage();
  return { context, page };
}

/** The whole page, or with `fullPage: false` the screen as seen (a bar fixed to its foot stays there). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage });
}
