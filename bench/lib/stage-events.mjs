// Stage (c): many sessions subscribed to securityEvents over graphql-ws at once; an administrator
// terminates each session and we time the event's arrival. Baseline: plain WebSockets to a bare
// server that pushes one message per HTTP request, the floor of "request in, push out".
import { performance } from 'node:perf_hooks';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { clientBody, clientHeaders, postGraphql, webOperation } from './graphql-ops.mjs';
import { eachLimited, percentile, round } from './load.mjs';

const CONNECT_PARALLEL = 50;
const TERMINATE_PARALLEL = 4;
const ARRIVAL_LIMIT_MS = 30_000;
/** The web app's own operations: the subscription useSecurityEvents holds, and the sessions table's terminate. */
const SECURITY_EVENTS = webOperation('SecurityEvents');
const TERMINATE = webOperation('AdminTerminateSession');

function connectGraphqlWs(url, who, onEvent) {
  return new Promise((resolve, reject) => {
    const client = createClient({
      url: url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${who.token}`, deviceId: who.deviceId },
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
    });
    const timer = setTimeout(() => reject(new Error('connect timed out')), 30_000);
    client.on('connected', () => {
      clearTimeout(timer);
      client.subscribe(
        { ...SECURITY_EVENTS, variables: {} },
        { next: ({ data }) => data && onEvent(data.securityEvents.type), error: () => {}, complete: () => {} },
      );
      resolve(client);
    });
    client.on('closed', () => {
      clearTimeout(timer);
      reject(new Error('closed before connecting'));
    });
  });
}

function connectPlainWs(url, id, onEvent) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/ws?id=${id}`);
    socket.once('open', () => resolve({ dispose: () => socket.terminate() }));
    socket.once('error', reject);
    socket.on('message', (raw) => onEvent(JSON.parse(String(raw)).type));
  });
}

/**
 * Connects one client per target, then triggers one event per connected target
 * `TERMINATE_PARALLEL` at a time; latency is from the trigger request being sent to the event
 * arriving at its client. Both phases stop at their time limit, so a slow machine cannot stall the run.
 */
async function measure({ targets, connect, trigger, server, limits }) {
  const records = targets.map(() => ({ connected: false, sentAt: 0, arrivedAt: 0 }));
  const clients = [];
  const connectStart = performance.now();
  const connectUntil = connectStart + limits.connectMs;
  await eachLimited(targets, CONNECT_PARALLEL, async (target, i) => {
    if (performance.now() > connectUntil) return;
    const onEvent = (type) => {
      if (type === 'SESSION_TERMINATED' && !records[i].arrivedAt) records[i].arrivedAt = performance.now();
    };
    try {
      clients.push(await connect(target, i, onEvent));
      records[i].connected = true;
    } catch {
      // counted below as not connected
    }
  });
  const connectSeconds = (performance.now() - connectStart) / 1000;
  // graphql-ws does not acknowledge a subscribe: give the server a moment to register them all.
  await new Promise((r) => setTimeout(r, 2000));

  await server.stats(true);
  let triggered = 0;
  let triggerFailures = 0;
  const triggerUntil = performance.now() + limits.triggerMs;
  await eachLimited(targets, TERMINATE_PARALLEL, async (target, i) => {
    if (!records[i].connected || performance.now() > triggerUntil) return;
    records[i].sentAt = performance.now();
    triggered++;
    if (!(await trigger(target, i).catch(() => false))) triggerFailures++;
  });
  const waitUntil = performance.now() + ARRIVAL_LIMIT_MS;
  while (records.some((r) => r.sentAt && !r.arrivedAt) && performance.now() < waitUntil)
    await new Promise((r) => setTimeout(r, 100));
  const probe = await server.stats();
  await Promise.all(clients.map((c) => c.dispose()));

  const latencies = records.filter((r) => r.sentAt && r.arrivedAt).map((r) => r.arrivedAt - r.sentAt);
  return {
    sessions: targets.length,
    connected: clients.length,
    connectSeconds: round(connectSeconds),
    triggered,
    triggerFailures,
    received: latencies.length,
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    max: round(percentile(latencies, 100)),
    eventLoopMax: probe.eventLoopDelayMs.max,
    limits,
  };
}

export function loadEvents(server, subscribers, admin, limits) {
  return measure({
    targets: subscribers,
    server,
    limits,
    connect: (who, _i, onEvent) => connectGraphqlWs(server.url, who, onEvent),
    trigger: async (who) => {
      const { status, body } = await postGraphql(
        server.url,
        clientBody(TERMINATE, { userId: who.userId, sessionId: who.sessionId }),
        clientHeaders(admin),
      );
      return status === 200 && body.data?.terminateUserSession === true;
    },
  });
}

export function loadPlainEvents(server, count, limits) {
  return measure({
    targets: Array.from({ length: count }, (_, i) => i),
    server,
    limits,
    connect: (id, _i, onEvent) => connectPlainWs(server.url, id, onEvent),
    trigger: async (id) => (await fetch(`${server.url}/notify/${id}`, { method: 'POST' })).ok,
  });
}

export function eventsSection(app, base) {
  return {
    title: `Live events: ${app.sessions} sessions subscribed at once, an administrator terminates each`,
    baselineLabel: `plain WebSockets to a bare server that pushes one message per HTTP request (${base.sessions} sockets, same parallelism)`,
    figures: [
      {
        label: 'sessions connected and subscribed',
        value: app.connected,
        unit: 'sessions',
        baseline: base.connected,
        better: 'higher',
        aim: `${app.sessions}`,
        met: app.connected === app.sessions,
      },
      {
        label: 'time to connect them all',
        value: app.connectSeconds,
        unit: 's',
        baseline: base.connectSeconds,
        better: 'lower',
      },
      {
        label: 'events received (of sessions terminated)',
        value: app.received,
        unit: 'events',
        baseline: base.received,
        better: 'higher',
        aim: `${app.sessions}`,
        met: app.received === app.sessions,
      },
      { label: 'terminate to receipt p50', value: app.p50, unit: 'ms', baseline: base.p50, better: 'lower' },
      { label: 'terminate to receipt p99', value: app.p99, unit: 'ms', baseline: base.p99, better: 'lower' },
      { label: 'terminate to receipt max', value: app.max, unit: 'ms', baseline: base.max, better: 'lower' },
      {
        label: 'event loop blocked, max (during terminations)',
        value: app.eventLoopMax,
        unit: 'ms',
        baseline: base.eventLoopMax,
        better: 'lower',
      },
    ],
    notes: [
      `Terminations sent ${TERMINATE_PARALLEL} at a time by one administrator session (GraphQL terminateUserSession); the latency runs from sending the mutation to the subscriber's event, so it includes the mutation itself (lookup, update, audit row, commit) and any queueing behind the other ${TERMINATE_PARALLEL - 1} in flight.`,
      `Connected ${app.connected} of ${app.sessions} within ${app.limits.connectMs / 1000} s; terminated ${app.triggered} within ${app.limits.triggerMs / 1000} s (${app.triggerFailures} failed); ${app.received} events arrived. Baseline: ${base.connected} connected, ${base.triggered} pushed, ${base.received} arrived.`,
    ],
  };
}
