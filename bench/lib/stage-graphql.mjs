// Stage (a): the library's and the admin user list's first queries over GraphQL at 1, 16 and 64
// concurrent clients, beside the same SQL sent through the same driver by a bare HTTP handler.
// The requests are the web client's own: its documents (web/src/**/*.graphql, read at run time),
// printed and sent as its Apollo client does, with the variables its pages send on first load.
import { LIBRARY_FIRST_PAGE, clientBody, clientHeaders, webOperation } from './graphql-ops.mjs';
import { hammer } from './load.mjs';

export const CONCURRENCY = [1, 16, 64];

/**
 * The operations the two pages send on first load, who sends them and with what, for the capture
 * and for the load. Variables as the pages write them: the library's first page and
 * useListControls' first window (web/src/features/admin/hooks/useListControls.ts: 10 rows).
 */
export function graphqlOperations(seeded) {
  const library = { page: 'the library page (/)', caller: 'a user with 30 grants, 6 of them started' };
  const ops = [
    {
      name: 'AudioFiles',
      path: '/',
      ...library,
      variables: LIBRARY_FIRST_PAGE,
      who: seeded.browsers[0],
    },
    { name: 'ContinueListening', path: '/', ...library, variables: {}, who: seeded.browsers[0] },
    {
      name: 'AdminUsers',
      path: '/admin/users',
      page: 'the admin user list (/admin/users)',
      caller: `an administrator, ${seeded.totals.users} accounts in all`,
      variables: { search: null, offset: 0, limit: 10 },
      who: seeded.admin[0],
    },
  ];
  return ops.map((op) => ({ ...op, body: clientBody(webOperation(op.name), op.variables) }));
}

/** GraphQL over HTTP against the app: { [op]: [result per concurrency] }. */
export async function loadGraphql(url, operations, seconds, log) {
  const out = {};
  for (const op of operations) {
    out[op.name] = [];
    for (const connections of CONCURRENCY) {
      const result = await hammer({
        url: `${url}/graphql`,
        headers: clientHeaders(op.who),
        body: op.body,
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

/**
 * Whether the pages the Lighthouse stage loaded in this run (`sent`: request bodies by page) sent
 * each operation of this stage exactly as it is sent here. Lighthouse visits /, not the admin pages.
 */
function checkAgainstPages(operations, sent) {
  if (!sent) return ['Not compared with what a browser sends: the Lighthouse stage did not run.'];
  return operations.map((op) => {
    const bodies = sent[op.path];
    if (!bodies) return `\`${op.name}\`: not compared with a browser (Lighthouse does not load ${op.path}).`;
    if (bodies.includes(op.body))
      return `\`${op.name}\`: the same request body as ${op.path} sent in this run's Lighthouse stage.`;
    const theirs = bodies.filter((b) => JSON.parse(b).operationName === op.name);
    return `\`${op.name}\`: **not what ${op.path} sent** in this run's Lighthouse stage (${theirs.length > 0 ? theirs.join(' ') : 'no such operation'}).`;
  });
}

/**
 * Report section: per operation and concurrency, throughput and latency beside the baseline, and
 * whether the browser sent the same requests (`sent`, from the Lighthouse stage, when it ran).
 */
export function graphqlSection(operations, app, base, captured, sent) {
  const figures = [];
  const notes = [];
  for (const op of operations) {
    const statements = captured[op.name].statements.length;
    notes.push(
      `\`${op.name}\` ${JSON.stringify(op.variables)} as ${op.page} sends it, by ${op.caller}: ${statements} SQL statement(s) per request (authentication included), replayed by the baseline.`,
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
    notes: [
      ...notes,
      ...checkAgainstPages(operations, sent),
      "The requests are the web client's: the operations and the fragments they spread read from web/src/**/*.graphql at run time, __typename added by Apollo Client's own transform, with the body (operationName, variables, extensions, query) and accept header of its HttpLink. The baseline replays the SQL the app issued for exactly these requests, so the two stay comparable whatever the documents ask for.",
    ],
  };
}
