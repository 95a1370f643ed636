import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { PHONE, screenshot } from './browser';

/**
 * Moves the pointer off the page and waits for the CSS transitions running then to end, so that
 * axe measures colours at rest: not a button half-way into its hover colour, nor one fading to
 * its disabled colour (an infinite animation, a spinner's, is not waited for).
 */
export async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(async () => {
    await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition);
    await Promise.all(transitions.map((t) => t.finished.catch(() => undefined)));
  });
}

/** Serious and critical axe findings on the page as it is, once its colours have settled. */
export async function severeFindings(page: Page): Promise<string[]> {
  await settle(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Screenshots at 1280 and 390 px in light and dark, each checked with axe. */
export async function recordPage(page: Page, name: string, ready: () => Promise<void>): Promise<void> {
  for (const viewport of [{ width: 1280, height: 860 }, PHONE]) {
    await page.setViewportSize(viewport);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await ready();
      await screenshot(page, `${name}-${viewport.width}-${scheme}`);
      expect(await severeFindings(page)).toEqual([]);
    }
  }
}
