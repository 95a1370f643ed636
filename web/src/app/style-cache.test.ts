import { compile, middleware, prefixer, serialize, stringify } from 'stylis';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * What emotion would insert for `css` (one rule per line), through the app's stylis steps, in a
 * browser that `knows` some pseudo-elements (null: one without CSS.supports).
 */
async function rules(css: string, knows: ((selector: string) => boolean) | null): Promise<string[]> {
  vi.stubGlobal('CSS', knows && { supports: (query: string) => knows(query.slice('selector(*'.length, -1)) });
  vi.resetModules(); // the answers are remembered per module
  const { dropForeignSelectors } = await import('./style-cache');
  const inserted: string[] = [];
  serialize(
    compile(css),
    middleware([
      prefixer,
      dropForeignSelectors,
      stringify,
      (element) => void (element.root || inserted.push(element.return)),
    ]),
  );
  return inserted.filter(Boolean);
}

const chromium = (pseudo: string) => !/-(moz|ms)-/.test(pseudo);
const firefox = (pseudo: string) => !/-(webkit|ms)-/.test(pseudo);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the style cache drops selectors the browser cannot parse', () => {
  it("drops another engine's pseudo-elements, prefixed copies included, and keeps the browser's own", async () => {
    const css = '.a::-moz-focus-inner{border-style:none;}.b::placeholder{color:red;}.c{color:blue;}';
    expect(await rules(css, chromium)).toEqual([
      '.b::-webkit-input-placeholder{color:red;}',
      '.b::placeholder{color:red;}',
      '.c{color:blue;}',
    ]);
    expect(await rules(css, firefox)).toEqual([
      '.a::-moz-focus-inner{border-style:none;}',
      '.b::-moz-placeholder{color:red;}',
      '.b::placeholder{color:red;}',
      '.c{color:blue;}',
    ]);
  });

  it('keeps the selectors of a list the browser knows and the rule with them', async () => {
    expect(await rules('.a::-moz-focus-inner,.a:focus{outline:0;}', chromium)).toEqual(['.a:focus{outline:0;}']);
  });

  it('keeps everything when the browser cannot be asked', async () => {
    expect(await rules('.a::-moz-focus-inner{border-style:none;}', null)).toEqual([
      '.a::-moz-focus-inner{border-style:none;}',
    ]);
  });
});
