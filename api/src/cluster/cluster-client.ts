import { randomInt, randomUUID } from 'node:crypto';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { UPSTREAM_HEADER } from './nginx.js';

export interface Session {
  token: string;
  deviceId: string;
  userId: string;
  sessionId: string;
}

/** A REST or GraphQL answer, with the replica nginx says served it (null when called directly). */
export interface Answer<T> {
  status: number;
  headers: IncomingHttpHeaders;
  body: T;
  upstream: string | null;
}

export interface ErrorBody {
  success?: boolean;
  message?: string;
  error?: { code: string; message: string };
}

export interface LoginBody extends ErrorBody {
  requiresDeviceApproval?: boolean;
  token?: string | null;
  user?: { id: string } | null;
  deviceSession?: { id: string } | null;
}

export interface GqlBody<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface ReadResult {
  status: number;
  received: number;
  /** The whole body arrived before the timeout. */
  ended: boolean;
  upstream: string | null;
}

export interface SecurityEvent {
  type: string;
  message: string;
  /** performance.now() when it arrived. */
  at: number;
}

/**
 * A client machine of its own: a random loopback address (127.x.y.z, never 127.0.0.1) that nginx
 * sees as the client's, so each test file's per-address limits start from nothing, whatever ran
 * before it (or beside it, on the machine's shared Redis).
 */
export function newClientAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
}

export function newDeviceId(): string {
  return `cluster-device-${randomUUID()}`;
}

const deviceData = (deviceId: string) => ({
  deviceId,
  deviceName: 'Chrome on Linux',
  browser: 'Chrome',
  os: 'Linux',
  deviceType: 'Desktop',
});

const upstreamOf = (headers: IncomingHttpHeaders) => {
  const value = headers[UPSTREAM_HEADER];
  return typeof value === 'string' ? value : null;
};

function credentials(session: Session | null | undefined): Record<string, string> {
  return session ? { authorization: `Bearer ${session.token}`, 'x-device-id': session.deviceId } : {};
}

/** Talks HTTP and graphql-ws to nginx or to one replica, from its own loopback address. */
export class ClusterClient {
  readonly #agent = new http.Agent({ keepAlive: true });

  constructor(
    readonly baseUrl: string,
    readonly address = newClientAddress(),
  ) {}

  request<T>(
    method: string,
    pathname: string,
    options: { body?: unknown; headers?: Record<string, string>; session?: Session | null } = {},
  ): Promise<Answer<T>> {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        new URL(pathname, this.baseUrl),
        {
          method,
          agent: this.#agent,
          localAddress: this.address,
          headers: {
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...credentials(options.session),
            ...options.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown = text;
            try {
              body = JSON.parse(text);
            } catch {
              // not JSON: keep the text
            }
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: body as T,
              upstream: upstreamOf(res.headers),
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  rest<T = ErrorBody>(method: string, route: string, body?: unknown, session?: Session | null): Promise<Answer<T>> {
    return this.request<T>(method, `/api/v1${route}`, { body, session });
  }

  gql<T>(query: string, variables: Record<string, unknown>, session: Session): Promise<Answer<GqlBody<T>>> {
    return this.request<GqlBody<T>>('POST', '/graphql', { body: { query, variables }, session });
  }

  /** One sign-in attempt (REST, as the spec's clients send it). */
  login(email: string, password: string, deviceId: string, deviceApproved: boolean): Promise<Answer<LoginBody>> {
    return this.request<LoginBody>('POST', '/api/v1/auth/login', {
      body: { email, password, deviceData: deviceData(deviceId), deviceApproved },
      headers: { 'x-device-id': deviceId },
    });
  }

  /** Signs in as a person does: the device approval round trip, then the approved login. */
  async signIn(email: string, password: string, deviceId = newDeviceId()): Promise<Session> {
    let res = await this.login(email, password, deviceId, false);
    if (res.body.requiresDeviceApproval) res = await this.login(email, password, deviceId, true);
    const { token, user, deviceSession } = res.body;
    if (!res.body.success || !token || !user || !deviceSession) {
      throw new Error(`sign-in of ${email} failed (${res.status}): ${JSON.stringify(res.body)}`);
    }
    return { token, deviceId, userId: user.id, sessionId: deviceSession.id };
  }

  /**
   * GETs `pathname` and reads its body until it ends or `timeoutMs` pass, as a script pulling
   * audio would; then hangs up.
   */
  readBody(pathname: string, headers: Record<string, string>, timeoutMs: number): Promise<ReadResult> {
    return new Promise((resolve, reject) => {
      const req = http.get(
        new URL(pathname, this.baseUrl),
        { headers, agent: this.#agent, localAddress: this.address },
        (res) => {
          let received = 0;
          const finish = (ended: boolean) => {
            clearTimeout(timer);
            if (!ended) res.destroy();
            resolve({ status: res.statusCode ?? 0, received, ended, upstream: upstreamOf(res.headers) });
          };
          const timer = setTimeout(() => finish(false), timeoutMs);
          res.on('data', (chunk: Buffer) => (received += chunk.length));
          res.on('end', () => finish(true));
          res.on('error', () => finish(false));
        },
      );
      req.on('error', reject);
    });
  }

  /** Subscribes to securityEvents over graphql-ws as the web app does; `upstream` is the socket's replica. */
  async subscribeSecurityEvents(session: Session): Promise<{
    events: SecurityEvent[];
    upstream: string | null;
    next(timeoutMs: number): Promise<SecurityEvent>;
    close(): Promise<void>;
  }> {
    const { client, upstream } = await this.#connectSocket(session);
    const events: SecurityEvent[] = [];
    const waiters: (() => void)[] = [];
    client.subscribe<{ securityEvents: Omit<SecurityEvent, 'at'> }>(
      { query: 'subscription { securityEvents { type message } }' },
      {
        next: ({ data }) => {
          if (!data) return;
          events.push({ ...data.securityEvents, at: performance.now() });
          waiters.splice(0).forEach((wake) => wake());
        },
        error: () => {},
        complete: () => {},
      },
    );
    // The server registers the subscription before the caller makes anything happen.
    await new Promise((r) => setTimeout(r, 300));
    let consumed = 0;
    return {
      events,
      upstream,
      async next(timeoutMs) {
        const deadline = Date.now() + timeoutMs;
        while (consumed >= events.length) {
          if (Date.now() >= deadline) throw new Error(`no security event within ${timeoutMs} ms`);
          await new Promise<void>((wake) => {
            waiters.push(wake);
            setTimeout(wake, deadline - Date.now());
          });
        }
        return events[consumed++];
      },
      close: async () => {
        await client.dispose();
      },
    };
  }

  /**
   * Subscribes to `query` over graphql-ws as the web app does; `events` fills as data arrive,
   * `upstream` is the socket's replica.
   */
  async subscribe<T>(
    session: Session,
    query: string,
    variables: Record<string, unknown>,
  ): Promise<{ events: T[]; upstream: string | null; close(): Promise<void> }> {
    const { client, upstream } = await this.#connectSocket(session);
    const events: T[] = [];
    client.subscribe<T>(
      { query, variables },
      { next: ({ data }) => data && events.push(data as T), error: () => {}, complete: () => {} },
    );
    // The server registers the subscription before the caller makes anything happen.
    await new Promise((r) => setTimeout(r, 300));
    return { events, upstream, close: () => client.dispose() as Promise<void> };
  }

  /**
   * A graphql-ws client connected from this client's address as the web app connects, and the
   * replica nginx sent its socket to.
   */
  async #connectSocket(session: Session): Promise<{ client: Client; upstream: string | null }> {
    let upstream: string | null = null;
    const address = this.address;
    class BoundWebSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { localAddress: address });
        this.once('upgrade', (res: IncomingMessage) => (upstream = upstreamOf(res.headers)));
      }
    }
    const client = createClient({
      url: `${this.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: BoundWebSocket,
      connectionParams: { authorization: `Bearer ${session.token}`, deviceId: session.deviceId },
      retryAttempts: 0,
      lazy: false,
      // A socket on a replica the test kills closes: not worth a console error.
      onNonLazyError: () => {},
    });
    await new Promise<void>((resolve, reject) => {
      client.on('connected', () => resolve());
      client.on('closed', (e) => reject(new Error(`socket closed: ${(e as { code?: number }).code}`)));
    });
    return { client, upstream };
  }

  close(): void {
    this.#agent.destroy();
  }
}
