import path from 'node:path';
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

export interface PagePreloadOptions {
  /** The localStorage key whose presence means the browser holds a session. */
  sessionKey: string;
  /** The layout every signed-in page needs, relative to the project root. */
  layout: string;
  /** Pages by address: a path ending in `/` is a prefix, any other is exact. */
  pages: Record<string, string>;
  /** The localStorage key of the device id the session was signed in with. */
  deviceKey: string;
  /** GraphQL requests to send at once on a page (by the same addresses as `pages`): early-request.ts. */
  early: Record<string, EarlyRequest[]>;
}

/** One request of a first screen, as Apollo would send it (early-request.ts makes them). */
export interface EarlyRequest {
  /** requestKey() of web/src/app/early-answers.ts: how the app finds the answer. */
  key: string;
  /** The JSON body, byte for byte Apollo's. */
  body: string;
  /** Where in the answer's data the URL of a cover to fetch at once is, if any. */
  cover?: (string | number)[];
}

/** A chunk's file and, recursively, those of its static imports. */
function withImports(bundle: OutputBundle, chunk: OutputChunk, seen = new Set<string>()): string[] {
  if (seen.has(chunk.fileName)) return [];
  seen.add(chunk.fileName);
  const files = [chunk.fileName];
  for (const name of chunk.imports) {
    const imported = bundle[name];
    if (imported?.type === 'chunk') files.push(...withImports(bundle, imported, seen));
  }
  return files;
}

/**
 * The browser-side script: with a session, a modulepreload link for each file of the page, and the
 * page's first GraphQL requests and first cover sent at once (web/src/app/early-answers.ts takes
 * the answers). Headers as the app's (request-headers.ts): the bearer token and the device id.
 */
function preloadScript(
  options: PagePreloadOptions,
  layout: string[],
  pages: [string, string[]][],
  early: [string, EarlyRequest[]][],
): string {
  return `// Written by web/build/page-preload.ts.
try {
  const token = localStorage.getItem(${JSON.stringify(options.sessionKey)});
  if (token !== null) {
    const path = location.pathname;
    const at = ([prefix]) => (prefix.endsWith('/') && prefix !== '/' ? path.startsWith(prefix) : path === prefix);
    const page = ${JSON.stringify(pages)}.find(at);
    for (const file of [...${JSON.stringify(layout)}, ...(page ? page[1] : [])]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = '/' + file;
      document.head.appendChild(link);
    }
    const deviceId = localStorage.getItem(${JSON.stringify(options.deviceKey)});
    const requests = ${JSON.stringify(early)}.find(at);
    if (requests && deviceId) {
      const auth = { Authorization: 'Bearer ' + token, 'X-Device-ID': deviceId };
      const covers = new Map();
      const fetchCover = (url) => {
        const cover = fetch(url.startsWith('/api/v1') ? url : '/api/v1' + url, { headers: auth, credentials: 'include' })
          .then((r) => (r.ok ? r.blob() : Promise.reject(new Error('HTTP ' + r.status))));
        cover.catch(() => undefined);
        covers.set(url, cover);
      };
      // One request per task: a fetch() call costs a few milliseconds, more under DevTools.
      const graphql = requests[1].map(({ key, body, cover }) => {
        const answer = new Promise((resolve) => setTimeout(resolve, 0))
          .then(() =>
            fetch('/graphql', {
              method: 'POST',
              credentials: 'include',
              headers: { ...auth, 'content-type': 'application/json', accept: 'application/graphql-response+json,application/json;q=0.9' },
              body,
            }),
          )
          .then((r) => r.text().then((text) => ({ status: r.status, headers: [...r.headers], body: text })));
        answer.catch(() => undefined);
        if (cover)
          answer.then((a) => {
            const url = cover.reduce((value, step) => (value == null ? value : value[step]), JSON.parse(a.body).data);
            if (a.status === 200 && typeof url === 'string') fetchCover(url);
          }).catch(() => undefined);
        return { key, answer };
      });
      window.__palEarly = { at: Date.now(), token, graphql, covers };
    }
  }
} catch {
  // Storage blocked: the router loads the page's code, and the page its data, as they always do.
}
`;
}

/**
 * The signed-in pages' code is loaded by the router, which runs only once React and MUI have
 * arrived and run: a second round of downloads after the first. With a session in the browser,
 * this asks for the layout's and the current page's code at once, alongside React and MUI, through
 * a small script that index.html loads first (an inline one would need the CSP to allow it). The
 * sign-in page, without a session, loads nothing more. Files already in index.html are skipped.
 */
export function pagePreload(options: PagePreloadOptions): Plugin {
  let root = '';
  return {
    name: 'pal-page-preload',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_output, bundle) {
      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const chunkOf = (source: string) => {
        const id = path.resolve(root, source);
        const chunk = chunks.find((c) => c.facadeModuleId === id);
        if (!chunk) throw new Error(`pal-page-preload: no chunk for ${source}`);
        return chunk;
      };
      const entry = chunks.find((c) => c.isEntry);
      const initial = new Set(entry ? withImports(bundle, entry) : []);
      const files = (source: string) => withImports(bundle, chunkOf(source)).filter((f) => !initial.has(f));
      const layout = files(options.layout);
      const pages = Object.entries(options.pages).map(([at, source]): [string, string[]] => [
        at,
        files(source).filter((f) => !layout.includes(f)),
      ]);
      const ref = this.emitFile({
        type: 'asset',
        name: 'page-preload.js',
        source: preloadScript(options, layout, pages, Object.entries(options.early)),
      });
      const html = bundle['index.html'];
      if (html?.type !== 'asset' || typeof html.source !== 'string') throw new Error('pal-page-preload: no index.html');
      const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
      html.source = html.source.replace('<head>', `<head>\n    ${tag}`);
    },
  };
}
