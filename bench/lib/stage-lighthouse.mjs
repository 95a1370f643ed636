// Lighthouse 12.2.3 (pinned: 13 needs Node 22) mobile performance scores of the built web app as
// the API serves it: /login signed out, then / and /player/{id} signed in through the sign-in form.
// Debian's Chromium with the flags of DESIGN.md section 7; never a downloaded browser. The HTTP
// cache is emptied before every run (signed-in runs keep their storage, not their cache), so each
// score is a first visit's.
import { existsSync } from 'node:fs';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { round } from './load.mjs';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The issue's aims (18): mobile performance. */
const AIMS = { '/login': 90, '/': 80, '/player': 80 };

export const chromiumMissing = () => (existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function audit(page, url, keepStorage) {
  const cdp = await page.createCDPSession();
  await cdp.send('Network.clearBrowserCache');
  await cdp.detach();
  const { lhr } = await lighthouse(
    url,
    { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: keepStorage },
    undefined,
    page,
  );
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    bytes: metric('total-byte-weight'),
    finalUrl: lhr.finalDisplayedUrl,
    // Lighthouse's measure of the host's speed during the run; busy machines score lower.
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? NaN,
  };
}

/**
 * Signs in through the form as a person would, accepting the single-device notice a first sign-in
 * shows, and waits for the library. Generous limits: argon2 and the first signed-in page's code on
 * a machine busy with other work.
 */
async function signIn(page, base, user) {
  await page.goto(`${base}/login`, { waitUntil: 'load', timeout: 120_000 });
  await page.locator('#email').fill(user.email);
  await page.locator('#password').fill(user.password);
  await page.locator('button[type=submit]').click();
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'load', timeout: 120_000 }),
    page.locator('::-p-text(I Understand - Proceed)').setTimeout(120_000).click(),
  ]);
  if (new URL(page.url()).pathname !== '/') throw new Error(`sign-in ended on ${page.url()}`);
}

/** Runs each page `runs` times (median reported, as Lighthouse advises for its variance). */
export async function measurePages({ base, user, runs, log }) {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
  try {
    const page = await browser.newPage();
    const pages = [
      { name: '/login', path: '/login', signedIn: false },
      { name: '/', path: '/', signedIn: true },
      { name: '/player', path: `/player/${user.fileId}`, signedIn: true },
    ];
    const results = {};
    for (const p of pages) {
      if (p.signedIn && !results.signedIn) {
        await signIn(page, base, user);
        results.signedIn = true;
      }
      const list = [];
      for (let i = 0; i < runs; i++) list.push(await audit(page, `${base}${p.path}`, p.signedIn));
      const wrong = list.find((r) => new URL(r.finalUrl).pathname !== p.path);
      if (wrong) throw new Error(`${p.path} ended on ${wrong.finalUrl}`);
      results[p.name] = list;
      log(`  ${p.name}: scores ${list.map((r) => r.score).join(', ')}`);
    }
    return results;
  } finally {
    await browser.close();
  }
}

export function lighthouseSection(results) {
  const figures = [];
  for (const name of Object.keys(AIMS)) {
    const list = results[name];
    const score = median(list.map((r) => r.score));
    const pick = (key) => median(list.map((r) => r[key]));
    figures.push(
      {
        label: `${name}: performance score`,
        value: score,
        unit: 'points',
        better: 'higher',
        aim: `>= ${AIMS[name]}`,
        met: score >= AIMS[name],
      },
      {
        label: `${name}: largest contentful paint (simulated mobile)`,
        value: round(pick('lcp') / 1000, 2),
        unit: 's',
        better: 'lower',
      },
      { label: `${name}: total blocking time`, value: Math.round(pick('tbt')), unit: 'ms', better: 'lower' },
      { label: `${name}: bytes transferred`, value: round(pick('bytes') / 1024, 0), unit: 'KiB', better: 'lower' },
    );
  }
  const runs = results['/login'].length;
  return {
    title: 'Lighthouse (mobile) on the built web app',
    figures,
    notes: [
      `Lighthouse 12.2.3, default mobile settings (Moto G Power emulation, simulated slow 4G and 4x CPU slowdown), performance category only; median of ${runs} run(s) per page, each with an empty HTTP cache. Scores per run: ${Object.keys(
        AIMS,
      )
        .map((n) => `${n} ${results[n].map((r) => r.score).join('/')}`)
        .join('; ')}.`,
      "Chromium is Debian's /usr/bin/chromium with the flags of DESIGN.md section 7. / and /player/{id} are measured signed in (through the sign-in form) as a user with 30 granted files, the first ones with covers; the player page is one of those files.",
      `No baseline: the aims are absolute scores. Lighthouse scores move with the load of the machine (its CPU simulation scales what it observed), so a busy machine scores lower; its benchmark index (its measure of the host's speed during the run; higher is faster) was ${Object.keys(
        AIMS,
      )
        .map((n) => `${n} ${results[n].map((r) => Math.round(r.benchmarkIndex)).join('/')}`)
        .join('; ')}.`,
    ],
  };
}
