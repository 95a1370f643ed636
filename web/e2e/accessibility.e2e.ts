import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAsAdmin } from './support/admin';
import { launchBrowser, newDevice } from './support/browser';
import { makeCover, setCover, uploadAudio } from './support/media';
import { libraryGrid } from './support/ui';

// axe-core (bundled with @axe-core/playwright, no network) on the screens the issue names, in
// both colour schemes. Serious and critical findings fail; every finding is written to
// test-results/axe/ for the record.

const reportDir = fileURLToPath(new URL('../../test-results/axe', import.meta.url));

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Finding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Runs axe on the page as it is and returns its findings (all impacts), also saved as JSON. */
async function audit(page: Page, name: string): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).analyze();
  const findings = results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(`${reportDir}/${name}.json`, JSON.stringify({ url: page.url(), findings }, null, 2));
  return findings;
}

const severe = (findings: Finding[]) => findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');

describe('accessibility (axe-core)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`finds nothing serious or critical on /login, /, /player/{id} and /admin/files in the ${scheme} theme`, async () => {
      const file = await uploadAudio(`Axe ${scheme} ${Date.now().toString(36)}`, {
        seconds: 20,
        description: 'A tone for the accessibility check',
      });
      await setCover(file.id, makeCover('teal', 600));
      const { page, context } = await newDevice(browser);
      // The app follows the system's scheme until the listener picks one.
      await page.emulateMedia({ colorScheme: scheme });

      await page.goto('/login');
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(scheme === 'dark');
      const found: Record<string, Finding[]> = { '/login': await audit(page, `login-${scheme}`) };

      await signInAsAdmin(page);
      await libraryGrid(page)
        .getByRole('button', { name: new RegExp(file.title) })
        .waitFor();
      found['/'] = await audit(page, `library-${scheme}`);

      await page.goto(`/player/${file.id}`);
      await page.getByText('Ready', { exact: true }).waitFor();
      await page.getByRole('img', { name: file.title }).waitFor();
      found['/player/{id}'] = await audit(page, `player-${scheme}`);

      await page.goto('/admin/files');
      await page.getByRole('table').getByRole('row').nth(1).waitFor();
      found['/admin/files'] = await audit(page, `admin-files-${scheme}`);

      const failing = Object.fromEntries(Object.entries(found).map(([path, f]) => [path, severe(f)]));
      expect(failing).toEqual({ '/login': [], '/': [], '/player/{id}': [], '/admin/files': [] });
      await context.close();
    });
  }
});
