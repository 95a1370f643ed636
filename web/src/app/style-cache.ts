import createCache from '@emotion/cache';
import { prefixer, RULESET, type Middleware } from 'stylis';

// MUI's styles reach the page through emotion, one CSSOM insertRule per rule. Some rules carry
// another engine's pseudo-element: MUI's own `::-moz-focus-inner`, and the `::-moz-placeholder`
// and `::-ms-input-placeholder` copies emotion's prefixer makes of every `::placeholder`. Chromium
// refuses those by throwing, and emotion catches and drops them: on the library's first screen 35
// of 362 inserts threw, and took 15 of the 19 ms all the inserts took. Such selectors are now
// dropped before they are inserted, in the browsers that do not know them; Firefox keeps its own.

/** A vendor pseudo-class or pseudo-element without arguments, such as `::-moz-placeholder`. */
const VENDOR_PSEUDO = /::?-(?:moz|ms|webkit|o)-[\w-]+(?![\w(-])/g;

const known = new Map<string, boolean>();

function browserKnows(pseudo: string): boolean {
  let answer = known.get(pseudo);
  if (answer === undefined) {
    try {
      answer = CSS.supports(`selector(*${pseudo})`);
    } catch {
      answer = true; // no way to ask: insert the rule, as emotion would
    }
    known.set(pseudo, answer);
  }
  return answer;
}

const usableHere = (selector: string): boolean => (selector.match(VENDOR_PSEUDO) ?? []).every(browserKnows);

/**
 * A stylis step: keeps only the selectors of a rule this browser can parse. A rule left with none
 * loses its body too (a new array: the prefixer's copies share the original's), which is what
 * makes stylis 4.2 write nothing for it.
 */
export const dropForeignSelectors: Middleware = (element) => {
  if (element.type !== RULESET || !Array.isArray(element.props)) return;
  if (!element.props.some((selector) => selector.includes(':-'))) return;
  element.props = element.props.filter(usableHere);
  if (element.props.length === 0) element.children = [];
};

/** The emotion cache every style of the app goes through: emotion's defaults plus the step above. */
export const styleCache = createCache({ key: 'css', stylisPlugins: [prefixer, dropForeignSelectors] });
