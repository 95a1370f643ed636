// Lighthouse 13 (pinned, with the puppeteer-core it drives pages with) mobile performance scores
// of the built web app as the API serves it: /login signed out, then / and /player/{id} signed in
// through the sign-in form. Debian's Chromium with the flags of DESIGN.md section 7; never a
// downloaded browser. The HTTP cache is emptied before every run (signed-in runs keep their
// storage, not their cache), so each score is a first visit's. Each run's result (LHR) is kept in
// bench/out for reading where the time went; the GraphQL requests the pages sent are kept for the
// GraphQL stage, which checks that it sends the same.
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
/** Aims for mobile performance: issue 18 set 90 and 80; "Seconds, not minutes" (6) asks 85 of / and the player. */
const AIMS = { '/login': 90, '/': 85, '/player': 85 };

export const chromiumMissing = () => (existsSync(CHROMIUM) ? null : `${CHROMIUM} not found (apt-get install chromium)`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Tries per run: Lighthouse sometimes loses the trace (NO_NAVSTART) and asks to be run again. */
const ATTEMPTS = 3;

/**
 * One Lighthouse run of `url`, each attempt in a new tab of the browser (its storage, so the
 * session, is the browser's); `onRequest` sees the tab's requests.
 */
async function audit(browser, url, keepStorage, lhrFile, onRequest) {
  let lhr;
  const lost = [];
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const page = await browser.newPage();
    try {
      page.on('request', onRequest);
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      ({ lhr } = await lighthouse(
        url,
        { logLevel: 'error', output: 'json', onlyCategories: ['performance'], disableStorageReset: keepStorage },
        undefined,
        page,
      ));
    } finally {
      await page.close();
    }
    writeFileSync(lhrFile, JSON.stringify(lhr));
    if (!lhr.runtimeError) break;
    lost.push(lhr.runtimeError.code);
    if (attempt === ATTEMPTS) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
  const metric = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    si: metric('speed-index'),
    bytes: metric('total-byte-weight'),
    // Audits Lighthouse could not run, by id: their figures are missing, not zero.
    failedAudits: Object.values(lhr.audits)
      .filter((a) => a.scoreDisplayMode === 'error')
      .map((a) => a.id),
    version: lhr.lighthouseVersion,
    // Runtime errors of the attempts thrown away before this one.
    lost,
    load: os.loadavg()[0],
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

/**
 * Runs each page `runs` times (median reported, as Lighthouse advises for its variance); each run's
 * LHR goes to `outDir`. `sent` holds the GraphQL request bodies each page sent, by page name.
 */
export async function measurePages({ base, user, runs, log, outDir }) {
  const browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: false, args: FLAGS });
  try {
    const sent = {};
    let measuring = null;
    const onRequest = (request) => {
      if (measuring && request.method() === 'POST' && new URL(request.url()).pathname === '/graphql')
        (sent[measuring] ??= new Set()).add(request.postData());
    };
    const pages = [
      { name: '/login', path: '/login', signedIn: false, file: 'login' },
      { name: '/', path: '/', signedIn: true, file: 'library' },
      { name: '/player', path: `/player/${user.fileId}`, signedIn: true, file: 'player' },
    ];
    const results = {};
    for (const p of pages) {
      if (p.signedIn && !results.signedIn) {
        const page = await browser.newPage();
        await signIn(page, base, user);
        await page.close();
        results.signedIn = true;
      }
      const list = [];
      measuring = p.name;
      for (let i = 0; i < runs; i++) {
        const lhrFile = path.join(outDir, `lighthouse-${p.file}-${i + 1}.json`);
        list.push(await audit(browser, `${base}${p.path}`, p.signedIn, lhrFile, onRequest));
      }
      measuring = null;
      const wrong = list.find((r) => new URL(r.finalUrl).pathname !== p.path);
      if (wrong) throw new Error(`${p.path} ended on ${wrong.finalUrl}`);
      results[p.name] = list;
      log(`  ${p.name}: scores ${list.map((r) => r.score).join(', ')}`);
    }
    results.sent = Object.fromEntries(Object.entries(sent).map(([name, bodies]) => [name, [...bodies]]));
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
    const seconds = (label, key) => ({
      label: `${name}: ${label}`,
      value: round(pick(key) / 1000, 2),
      unit: 's',
      better: 'lower',
    });
    figures.push(
      {
        label: `${name}: performance score`,
        value: score,
        unit: 'points',
        better: 'higher',
        aim: `>= ${AIMS[name]}`,
        met: score >= AIMS[name],
      },
      seconds('first contentful paint (simulated mobile)', 'fcp'),
      seconds('largest contentful paint (simulated mobile)', 'lcp'),
      seconds('speed index (simulated mobile)', 'si'),
      { label: `${name}: total blocking time`, value: Math.round(pick('tbt')), unit: 'ms', better: 'lower' },
      { label: `${name}: cumulative layout shift`, value: round(pick('cls'), 2), unit: '', better: 'lower' },
      { label: `${name}: bytes transferred`, value: round(pick('bytes') / 1024, 0), unit: 'KiB', better: 'lower' },
    );
  }
  const pages = Object.keys(AIMS);
  const first = results['/login'][0];
  const perRun = (format) => pages.map((n) => `${n} ${results[n].map(format).join('/')}`).join('; ');
  const failed = [...new Set(pages.flatMap((n) => results[n].flatMap((r) => r.failedAudits)))];
  const lost = pages.flatMap((n) => results[n].flatMap((r) => r.lost.map((code) => `${n} ${code}`)));
  return {
    title: 'Lighthouse (mobile) on the built web app',
    figures,
    notes: [
      `Lighthouse ${first.version}, default mobile settings (Moto G Power emulation, simulated slow 4G and 4x CPU slowdown), performance category only; median of ${results['/login'].length} run(s) per page (each figure its own median), each with an empty HTTP cache. Scores per run: ${perRun((r) => r.score)}.`,
      "Chromium is Debian's /usr/bin/chromium with the flags of DESIGN.md section 7. / and /player/{id} are measured signed in (through the sign-in form) as a user with 30 granted files, the first ones with covers; the player page is one of those files.",
      `No baseline: the aims are absolute scores. Lighthouse scores move with the load of the machine (its CPU simulation scales what it observed), so a busy machine scores lower. Its benchmark index (its measure of the host's speed during the run; higher is faster) was ${perRun((r) => Math.round(r.benchmarkIndex))}; the 1-minute load average at the end of each run ${perRun((r) => r.load.toFixed(1))}.`,
      ...(failed.length > 0
        ? [`Audits Lighthouse could not run on this Chromium, in some run: ${failed.join(', ')}.`]
        : []),
      ...(lost.length > 0 ? [`Runs Lighthouse lost and ran again: ${lost.join(', ')}.`] : []),
    ],
  };
}
