/**
 * What an attacker types into every text field, id and file name. No payload starts or ends with
 * white space, so a service that trims its input still has to give it back unchanged.
 */
export const textPayloads: readonly string[] = [
  "' OR '1'='1' --",
  "'); DROP TABLE users; --",
  '1; SELECT pg_sleep(5)',
  '<script>alert(document.cookie)</script>',
  '"><img src=x onerror=alert(1)>',
  '</script><svg/onload=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}} ${7*7} #{7*7}',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  'null',
  'Ünïcødé ✓ 🎧 עברית ‮gnp.exe',
  'line one\r\nSet-Cookie: injected=1',
  'back\\slash "double" \'single\' `tick`',
];

/** Contains a NUL: PostgreSQL cannot store it in text, so it must be refused, not crash a query. */
export const NUL_PAYLOAD = 'nul\u0000byte';

/** Longer than any text field the product allows. */
export const OVERLONG = 'x'.repeat(20_000);

/** Ids and file names as an attacker writes them into URLs and headers. */
export const idPayloads: readonly string[] = [
  '../../../../etc/passwd',
  '..%2F..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fsecret.key',
  '....//....//etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  "1' OR '1'='1",
  '1;DROP TABLE users',
  '<script>alert(1)</script>',
  '%00',
  '00000000-0000-0000-0000-000000000000%00.mp3',
  'a'.repeat(4000),
  '-1',
  '1e309',
  '🎧',
];

/** Values of the wrong JSON type for a field of the given kind. */
export function wrongTypesFor(kind: 'string' | 'number' | 'boolean' | 'object' | 'list'): unknown[] {
  const all: Record<typeof kind, unknown[]> = {
    string: [12345, true, { $ne: null }, ['a', 'b']],
    number: ['1; DROP TABLE users', 1e308, -1, 2 ** 53, 1.5, true, { $gt: 0 }],
    boolean: ['true', 1, { yes: true }],
    object: ['not an object', 42, [1, 2]],
    list: ['not a list', { 0: 'a' }],
  };
  return all[kind];
}

/** Bodies that are not what any route expects. */
export const malformedJsonBodies: readonly string[] = [
  '{"email": ',
  '{"a": 1,}',
  "{'single': 'quotes'}",
  'null',
  '[]',
  '"just a string"',
  '12345',
  '{"__proto__": {"isAdmin": true, "role": "admin"}, "constructor": {"prototype": {"isAdmin": true}}}',
  `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
  `[${'['.repeat(5000)}${']'.repeat(5000)}]`,
];
