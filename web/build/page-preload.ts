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

/** The browser-side script: with a session, a modulepreload link for each file of the page. */
function preloadScript(sessionKey: string, layout: string[], pages: [string, string[]][]): string {
  return `// Written by web/build/page-preload.ts.
try {
  if (localStorage.getItem(${JSON.stringify(sessionKey)}) !== null) {
    const path = location.pathname;
    const page = ${JSON.stringify(pages)}.find(([at]) => (at.endsWith('/') && at !== '/' ? path.startsWith(at) : path === at));
    for (const file of [...${JSON.stringify(layout)}, ...(page ? page[1] : [])]) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = '/' + file;
      document.head.appendChild(link);
    }
  }
} catch {
  // Storage blocked: the router loads the page's code as it always does.
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
        source: preloadScript(options.sessionKey, layout, pages),
      });
      const html = bundle['index.html'];
      if (html?.type !== 'asset' || typeof html.source !== 'string') throw new Error('pal-page-preload: no index.html');
      const tag = `<script async src="/${this.getFileName(ref)}"></script>`;
      html.source = html.source.replace('<head>', `<head>\n    ${tag}`);
    },
  };
}
