import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestKey, takeEarlyAnswer, takeEarlyCover } from './early-answers';

const FIRST_PAGE = { search: null, sort: 'TITLE', offset: 0, limit: 24 };

/** A body as Apollo's HTTP link sends it. */
const body = (operationName: string, variables: unknown) =>
  JSON.stringify({ operationName, variables, extensions: {}, query: `query ${operationName} { x }` });

function leaveEarly({ token = 'token-1', at = Date.now() } = {}) {
  const answer = (text: string) =>
    Promise.resolve({ status: 200, headers: [['content-type', 'application/json']] as [string, string][], body: text });
  window.__palEarly = {
    at,
    token,
    graphql: [
      { key: requestKey('AudioFiles', FIRST_PAGE), answer: answer('{"data":{"first":true}}') },
      { key: requestKey('ContinueListening', {}), answer: answer('{"data":{"shelf":true}}') },
    ],
    covers: new Map([['/api/v1/files/cover/1?size=thumbnail', Promise.resolve(new Blob(['cover']))]]),
  };
}

beforeEach(() => {
  localStorage.setItem('token', 'token-1');
});

afterEach(() => {
  delete window.__palEarly;
  localStorage.clear();
});

describe('answers page-preload.js got before the app loaded', () => {
  it('answers a request with the same operation and variables, in any key order, once', async () => {
    leaveEarly();
    const reordered = { limit: 24, offset: 0, sort: 'TITLE', search: null };
    const answered = takeEarlyAnswer(body('AudioFiles', reordered));
    expect(answered).toBeDefined();
    const response = await answered!;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ data: { first: true } });
    expect(takeEarlyAnswer(body('AudioFiles', reordered))).toBeUndefined();
    expect(takeEarlyAnswer(body('ContinueListening', {}))).toBeDefined();
  });

  it('leaves other requests to the network', () => {
    leaveEarly();
    expect(takeEarlyAnswer(body('AudioFiles', { ...FIRST_PAGE, offset: 24 }))).toBeUndefined();
    expect(takeEarlyAnswer(body('PlayerFile', { id: '1' }))).toBeUndefined();
    expect(takeEarlyAnswer('not json')).toBeUndefined();
    expect(takeEarlyAnswer(undefined)).toBeUndefined();
  });

  it('answers nothing for another session or after half a minute', () => {
    leaveEarly({ token: 'token-of-someone-else' });
    expect(takeEarlyAnswer(body('AudioFiles', FIRST_PAGE))).toBeUndefined();
    expect(takeEarlyCover('/api/v1/files/cover/1?size=thumbnail')).toBeUndefined();
    leaveEarly({ at: Date.now() - 31_000 });
    expect(takeEarlyAnswer(body('AudioFiles', FIRST_PAGE))).toBeUndefined();
  });

  it('hands over a cover it fetched, once', async () => {
    leaveEarly();
    const cover = takeEarlyCover('/api/v1/files/cover/1?size=thumbnail');
    expect(await (await cover!).text()).toBe('cover');
    expect(takeEarlyCover('/api/v1/files/cover/1?size=thumbnail')).toBeUndefined();
    expect(takeEarlyCover('/api/v1/files/cover/2?size=thumbnail')).toBeUndefined();
  });
});
