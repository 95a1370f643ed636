/**
 * Reading PostgreSQL's COPY text format: one row per line, columns separated by tabs, `\N` for
 * NULL, and backslash escapes for what the values themselves hold (so a value never contains a
 * raw tab or newline). COPY TO writes only the escapes below and `\\`; the octal and hex forms
 * COPY FROM also reads are never written, so they are not read here. Each value comes back as the
 * type's text form, which the type's input function reads back exactly.
 */
const SIMPLE_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

const unescapeValue = (field: string): string =>
  field.includes('\\') ? field.replace(/\\(.)/gs, (_, char: string) => SIMPLE_ESCAPES[char] ?? char) : field;

/** One line of COPY text: its values, NULL as null. */
export function parseCopyLine(line: string): (string | null)[] {
  return line.split('\t').map((field) => (field === '\\N' ? null : unescapeValue(field)));
}
