import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApi, createUser, rest } from './support/api';
import { launchBrowser, newDevice, PHONE, screenshot } from './support/browser';
import { grantAccess, makeCover, setCover, uploadAudio } from './support/media';
import { settle } from './support/record';
import { libraryGrid, signIn } from './support/ui';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/**
 * axe's serious and critical findings on the page as it is, by rule and target, once its colours
 * have settled (no control measured half-way into its hover colour).
 */
async function severeFindings(page: Page): Promise<string[]> {
  await settle(page);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

const clock = (page: Page) => page.getByRole('timer', { name: 'Playback time' }).textContent();

describe('finished books', () => {
  it('finishes a book played to its end, shows it finished, and lists it on the Finished shelf', async () => {
    const title = `Finished tone ${Date.now()}`;
    const user = await createUser();
    const file = await uploadAudio(title, { seconds: 40, description: 'A tone played to its end' });
    await setCover(file.id, makeCover('navy', 600));
    await grantAccess(user.id, file.id);
    const admin = await adminApi();
    const chapters = [
      { label: 'Opening', startTime: 0, endTime: null, order: 0 },
      { label: 'Closing', startTime: 25, endTime: null, order: 1 },
    ];
    expect((await rest('POST', `/files/${file.id}/chapters`, { chapters }, admin)).status).toBeLessThan(300);

    const { page, context } = await newDevice(browser);
    await signIn(page, user.email, user.password);
    // Nothing finished yet: no shelf.
    await libraryGrid(page)
      .getByRole('button', { name: new RegExp(title) })
      .waitFor();
    expect(await page.getByRole('region', { name: 'Finished' }).count()).toBe(0);

    await page.goto(`/player/${file.id}`);
    await page.getByText('Ready', { exact: true }).waitFor();
    // Book and chapter progress together: the chapter has its own clock under the book's.
    await page.getByRole('heading', { name: title }).click();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => clock(page)).toBe('0:30 / 0:40');
    await page.getByText('Chapter: Closing').waitFor();
    expect(await page.getByRole('timer', { name: 'Chapter time' }).textContent()).toBe('0:05 / 0:15');
    await screenshot(page, 'player-chapter-progress');

    // Played to its end (a jump lands half a second before it), the book is finished, not back at 0:00.
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/graphql') && /"finished":true/.test(r.request().postData() ?? ''),
    );
    await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await saved;
    await page.getByText('Finished', { exact: true }).waitFor();
    expect(await clock(page)).toBe('0:40 / 0:40');
    await page.getByRole('button', { name: 'Play again' }).waitFor();
    await screenshot(page, 'player-finished');

    // As the server has it: still finished after a reload.
    await page.reload();
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByText('Finished', { exact: true }).waitFor();
    expect(await clock(page)).toBe('0:40 / 0:40');

    await page.getByRole('button', { name: 'Back to Library' }).click();
    const shelf = page.getByRole('region', { name: 'Finished' });
    const card = shelf.getByRole('button', { name: new RegExp(title) });
    await card.waitFor();
    await card.getByRole('progressbar', { name: 'Finished: 100% listened' }).waitFor();
    expect(await page.getByRole('region', { name: 'Continue listening' }).count()).toBe(0);

    // Play again starts from 0:00 and the book leaves the shelf once it is played.
    await card.click();
    await page.getByText('Ready', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Play again' }).click();
    await expect.poll(() => page.getByText('Finished', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    const start = (await clock(page)) ?? '';
    expect(start.startsWith('0:0')).toBe(true);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();

    // Marked finished from the player, it is back on the shelf.
    await page.getByRole('button', { name: 'Mark as finished' }).click();
    await page.getByText('Finished', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Back to Library' }).click();
    await shelf.getByRole('button', { name: new RegExp(title) }).waitFor();
    await context.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    for (const [width, viewport] of [
      ['1280', { width: 1280, height: 860 }],
      ['390', PHONE],
    ] as const) {
      it(`shows the finished player and the Finished shelf at ${width} px in the ${scheme} theme, axe-clean`, async () => {
        const title = `Shelf ${scheme} ${width} ${Date.now().toString(36)}`;
        const user = await createUser();
        const file = await uploadAudio(title, { seconds: 20, description: 'A finished tone' });
        await setCover(file.id, makeCover('teal', 600));
        await grantAccess(user.id, file.id);
        const chapters = [
          { label: 'First half', startTime: 0, endTime: null, order: 0 },
          { label: 'Second half', startTime: 10, endTime: null, order: 1 },
        ];
        expect((await rest('POST', `/files/${file.id}/chapters`, { chapters }, await adminApi())).status).toBeLessThan(
          300,
        );
        const { page, context } = await newDevice(browser, viewport);
        await page.emulateMedia({ colorScheme: scheme });
        await signIn(page, user.email, user.password, `/player/${file.id}`);
        await page.getByText('Ready', { exact: true }).waitFor();
        // Playing: the book's bar with chapter marks, and the chapter's own bar and clock.
        await page.getByRole('timer', { name: 'Chapter time' }).waitFor();
        await page.getByRole('img', { name: title }).waitFor();
        await screenshot(page, `player-chapters-${width}-${scheme}`);
        expect(await severeFindings(page)).toEqual([]);
        await page.getByRole('button', { name: 'Mark as finished' }).click();
        await page.getByText('Finished', { exact: true }).waitFor();
        await page.getByRole('img', { name: title }).waitFor();
        await screenshot(page, `player-finished-${width}-${scheme}`);
        expect(await severeFindings(page)).toEqual([]);

        await page.getByRole('button', { name: 'Back to Library' }).click();
        await page
          .getByRole('region', { name: 'Finished' })
          .getByRole('button', { name: new RegExp(title) })
          .waitFor();
        await screenshot(page, `library-finished-shelf-${width}-${scheme}`);
        expect(await severeFindings(page)).toEqual([]);
        await context.close();
      });
    }
  }
});
