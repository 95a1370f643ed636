// Stage (a): the library query and the admin user list over GraphQL at 1, 16 and 64 concurrent
// clients, beside the same SQL sent through the same driver by a bare HTTP handler.
import { ADMIN_USERS_QUERY, LIBRARY_QUERY, authHeaders } from './graphql-ops.mjs';
import { hammer } from './load.mjs';

export const CONCURRENCY = [1, 16, 64];

/** The two operations: who sends them and with what, for the capture and for the load. */
export function graphqlOperations(seeded) {
  return [
    {
      name: 'library',
      title: 'Library query `audioFiles` (user with grants, 20 per page)',
      query: LIBRARY_QUERY,
      variables: { offset: 0, limit: 20 },
      who: seeded.browsers[0],
    },
    {
      name: 'adminUsers',
      title: 'Admin user list `adminUsers` (administrator, 20 per page)',
      query: ADMIN_USERS_QUERY,
      variables: { offset: 0, limit: 20 },
      who: seeded.admin[0],
    },
  ];
}

/** GraphQL over HTTP against the app: { [op]: [result per concurrency] }. */
export async function loadGraphql(url, operations, seconds, log) {
  const out = {};
  for (const op of operations) {
    out[op.name] = [];
    for (const connections of CONCURRENCY) {
      const result = await hammer({
        url: `${url}/graphql`,
        headers: { 'content-type': 'application/json', ...authHeaders(op.who) },
        body: JSON.stringify({ query: op.query, variables: op.variables }),
        connections,
        seconds,
      });
      log(
        `  graphql ${op.name} c=${connections}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
      out[op.name].push(result);
    }
  }
  return out;
}

/** The captured statements against the baseline server, same shape as loadGraphql. */
export async function loadSql(url, operations, seconds, log) {
  const out = {};
  for (const op of operations) {
    out[op.name] = [];
    for (const connections of CONCURRENCY) {
      const result = await hammer({ url: `${url}/sql/${op.name}`, body: '{}', headers: {}, connections, seconds });
      log(
        `  sql ${op.name} c=${connections}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
      );
      out[op.name].push(result);
    }
  }
  return out;
}

/** Report section: per operation and concurrency, throughput and latency beside the baseline. */
export function graphqlSection(operations, app, base, captured) {
  const figures = [];
  const notes = [];
  for (const op of operations) {
    const statements = captured[op.name].statements.length;
    notes.push(
      `${op.title}: ${statements} SQL statement(s) per request (authentication included), replayed by the baseline.`,
    );
    CONCURRENCY.forEach((c, i) => {
      const a = app[op.name][i];
      const b = base[op.name][i];
      const bad = a.non2xx + a.errors + a.bodyErrors + b.non2xx + b.errors + b.bodyErrors;
      if (a.total === 0 || b.total === 0)
        notes.push(
          `${op.name} at ${c}: no request completed within the 30 s timeout (API ${a.total}, baseline ${b.total}).`,
        );
      if (bad > 0)
        notes.push(
          `${op.name} at ${c}: ${a.non2xx} non-2xx, ${a.errors} errors, ${a.bodyErrors} GraphQL errors (baseline: ${b.non2xx + b.errors + b.bodyErrors}).`,
        );
      figures.push(
        {
          label: `${op.name}, ${c} client(s): throughput`,
          value: a.requestsPerSecond,
          unit: 'req/s',
          baseline: b.requestsPerSecond,
          better: 'higher',
          aim: 'ratio >= 0.5',
          met: a.total > 0 && b.total > 0 && a.requestsPerSecond >= 0.5 * b.requestsPerSecond,
        },
        { label: `${op.name}, ${c} client(s): p50`, value: a.p50, unit: 'ms', baseline: b.p50, better: 'lower' },
        { label: `${op.name}, ${c} client(s): p99`, value: a.p99, unit: 'ms', baseline: b.p99, better: 'lower' },
      );
    });
  }
  return {
    title: 'GraphQL: library query and admin user list',
    baselineLabel:
      'the same SQL statements through the same driver (MikroORM connection.execute) behind a bare node:http handler, in its own process on the same database',
    figures,
    notes,
  };
}
