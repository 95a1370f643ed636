// Stage (b): 16 clients logging in back to back (argon2id), while the server's probe records how
// long its event loop was ever blocked. Baseline: the argon2id verify alone behind a bare handler.
import { BENCH_PASSWORD } from './seed.mjs';
import { gql, plainOperation } from './graphql-ops.mjs';
import { closedLoop } from './load.mjs';

export const LOGIN_CLIENTS = 16;
/** The sign-in page's Login mutation (useLogin), as its plain fetch sends it. */
const LOGIN = plainOperation('Login');
const BLOCK_AIM_MS = 50;

/** Each worker signs in as its own account from the device it already holds a session on. */
export async function loadLogin(server, loginUsers, seconds) {
  await server.stats(true);
  const result = await closedLoop({
    concurrency: LOGIN_CLIENTS,
    seconds,
    task: async (worker) => {
      const user = loginUsers[worker % loginUsers.length];
      const input = {
        email: user.email,
        password: BENCH_PASSWORD,
        deviceApproved: false,
        deviceData: { deviceId: user.deviceId, deviceName: 'Benchmark client', browser: 'node', os: 'Linux' },
      };
      const { status, body } = await gql(server.url, LOGIN, { input });
      return status === 200 && body.data?.login?.success === true;
    },
  });
  const probe = await server.stats();
  return { ...result, eventLoop: probe.eventLoopDelayMs };
}

export async function loadArgon2(server, seconds) {
  await server.stats(true);
  const result = await closedLoop({
    concurrency: LOGIN_CLIENTS,
    seconds,
    task: async () => {
      const res = await fetch(`${server.url}/argon2`, {
        method: 'POST',
        signal: globalThis.AbortSignal.timeout(30_000),
      });
      return (await res.json()).ok === true;
    },
  });
  const probe = await server.stats();
  return { ...result, eventLoop: probe.eventLoopDelayMs };
}

export function loginSection(app, base) {
  const notes = [
    `${app.count} logins in all, ${app.failures} failed; baseline ${base.count} verifies, ${base.failures} failed.`,
    'Each login: GraphQL mutation, user lookup, argon2id verify, a transaction with a row lock, session update, audit row, token signing.',
    `Event-loop delay of the server process (perf_hooks.monitorEventLoopDelay, 10 ms resolution): p50 ${app.eventLoop.p50} ms, p99 ${app.eventLoop.p99} ms, max ${app.eventLoop.max} ms. The baseline server does next to nothing on its loop (argon2 runs on the libuv pool), so its delay (max ${base.eventLoop.max} ms) is what the machine's scheduling alone imposes; the app's excess over it is its own blocking.`,
  ];
  return {
    title: `Login: ${LOGIN_CLIENTS} concurrent clients, argon2id`,
    baselineLabel:
      'one argon2id verify of the same hash behind a bare node:http handler (the part of a login no code can avoid)',
    figures: [
      { label: 'login throughput', value: app.perSecond, unit: 'logins/s', baseline: base.perSecond, better: 'higher' },
      { label: 'login p50', value: app.p50, unit: 'ms', baseline: base.p50, better: 'lower' },
      { label: 'login p99', value: app.p99, unit: 'ms', baseline: base.p99, better: 'lower' },
      {
        label: 'event loop blocked, max',
        value: app.eventLoop.max,
        unit: 'ms',
        baseline: base.eventLoop.max,
        better: 'lower',
        aim: `<= ${BLOCK_AIM_MS} ms`,
        met: app.eventLoop.max <= BLOCK_AIM_MS,
      },
    ],
    notes,
  };
}
