// Module hooks for the test run (registered by worker-ts-register.mjs through vitest's execArgv).
// Vitest compiles the TypeScript it runs itself, but a worker thread the code starts
// (`new Worker(new URL('./x-worker.js', import.meta.url))`) loads its file through Node, which
// cannot read TypeScript: next to the sources, `x-worker.js` is `x-worker.ts`. Built, it is .js.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    const fromSources =
      specifier.endsWith('.js') && (specifier.startsWith('file:') || context.parentURL?.startsWith('file:'));
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !fromSources) throw err;
    return nextResolve(`${specifier.slice(0, -'.js'.length)}.ts`, context).catch(() => {
      throw err;
    });
  }
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  // Rolldown's transform (Vite's) strips the types in milliseconds; loaded here only, once per worker.
  const { transform } = await import('rolldown/utils');
  const { code, errors } = await transform(fileURLToPath(url), await readFile(new URL(url), 'utf8'));
  if (errors.length > 0) throw new Error(`Cannot compile ${url}: ${errors.map((e) => e.message).join('; ')}`);
  return { format: 'module', source: code, shortCircuit: true };
}
