import { expect } from 'vitest';
import type { AudioFile } from '../features/files/audio-file.entity.js';
import { createUser, signIn, type Session } from './factories.js';
import type { TestApp } from './harness.js';
import { grantFile, streamProofCookie } from './stream-fixtures.js';

/**
 * A browser-like client of one test file's streams: it opens stream sessions, remembers the
 * stream-path cookie each URL came with and sends it back with that URL, as a browser would.
 */
export class StreamClient {
  private readonly proofs = new Map<string, string>();

  constructor(
    private readonly t: TestApp,
    private readonly file: AudioFile,
  ) {}

  /** A signed-in user holding a live grant to the file. */
  async viewer(): Promise<Session & { grantId: string }> {
    const user = await createUser(this.t);
    const grantId = await grantFile(this.t, user.id, this.file.id);
    return { ...(await signIn(this.t, user.email)), grantId };
  }

  /** Opens a stream session of the file and answers its absolute stream URL. */
  async openStream(session: Session): Promise<string> {
    const res = await this.t.rest<{ data: { sessionToken: string; duration: number; streamUrl: string } }>(
      'POST',
      `/drm/session/${this.file.id}`,
      undefined,
      session,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.duration).toBe(this.file.duration);
    return this.remember(`${this.t.url}${res.body.data.streamUrl}`, res.headers);
  }

  /** Keeps the cookie a URL's answer set, to send back with that URL. */
  remember(url: string, headers: Headers): string {
    this.proofs.set(url, streamProofCookie(headers));
    return url;
  }

  /** The Cookie header a browser would send with `url`. */
  proofFor(url: string): string {
    return this.proofs.get(url) ?? '';
  }

  get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
    return fetch(url, { method, headers: { cookie: this.proofFor(url), ...headers } });
  }
}
