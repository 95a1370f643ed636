// The byte figures of bench:stream: random 64 KiB ranges and whole-file reads through /drm/stream
// (token, device id and the full access check on every request), against a bare Node static server
// and nginx serving the same file, all driven by wrk in alternating rounds.
import { round } from './load.mjs';
import { wrkLoad } from './wrk.mjs';

export const RANGE_SPAN = 64 * 1024;
/** The issue's aims (18, item 3): protected 64 KiB ranges at 16 connections, whole files. */
const AIMS = { rangeVsNode: 0.5, rangeVsNginx: 0.15, wholeVsNode: 0.8 };

const WARM_UP_SECONDS = 1;

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Cases: { name, span, connections, aims? }. Targets: { api, node, nginx? }, each { url, headers? }.
 * Every case runs `rounds` rounds in which each target takes its turn, after a warm-up of each, so
 * drift in what else the machine does falls on all of them alike; figures are means over rounds.
 */
export async function measureBytes({ wrk, size, targets, seconds, rounds, log }) {
  const cases = [
    { name: '64 KiB ranges', span: RANGE_SPAN, connections: 16, aims: true },
    { name: '64 KiB ranges', span: RANGE_SPAN, connections: 64 },
    { name: `whole file (${(size / 1e6).toFixed(1)} MB)`, span: 0, connections: 16, aims: true },
  ];
  const sides = Object.entries(targets).filter(([, t]) => t);
  const figures = [];
  const table = [];
  for (const c of cases) {
    const runs = Object.fromEntries(sides.map(([side]) => [side, []]));
    // Each side first serves the case for a second, unmeasured: figures are of a warm server (its
    // code compiled by the JIT, its caches filled), as one is after minutes of real use.
    for (const [, target] of sides) {
      await wrkLoad(wrk, { ...target, size, span: c.span, connections: c.connections, seconds: WARM_UP_SECONDS });
    }
    for (let r = 0; r < rounds; r++) {
      for (const [side, target] of sides) {
        runs[side].push(await wrkLoad(wrk, { ...target, size, span: c.span, connections: c.connections, seconds }));
      }
    }
    const avg = Object.fromEntries(
      Object.entries(runs).map(([side, list]) => [
        side,
        {
          rps: mean(list.map((x) => x.requestsPerSecond)),
          mbps: mean(list.map((x) => x.mbps)),
          p50: mean(list.map((x) => x.p50)),
          failed: list.reduce((a, x) => a + x.failed, 0),
        },
      ]),
    );
    for (const [side, a] of Object.entries(avg)) {
      if (a.failed > 0) throw new Error(`${side}: ${a.failed} failed or non-2xx answers in ${c.name}`);
    }
    table.push({ case: `${c.name}, ${c.connections} connections`, ...avg });
    log(
      `  ${c.name} x ${c.connections}: ${sides.map(([s]) => `${s} ${avg[s].rps.toFixed(0)} req/s ${avg[s].mbps.toFixed(0)} MB/s`).join(', ')}`,
    );
    const ranged = c.span > 0;
    const unit = ranged ? 'ranges/s' : 'MB/s';
    const value = (a) => round(ranged ? a.rps : a.mbps, ranged ? 0 : 1);
    const label = `/drm/stream, ${c.name}, ${c.connections} connections`;
    const aimNode = ranged ? AIMS.rangeVsNode : AIMS.wholeVsNode;
    figures.push({
      label: `${label}: ${ranged ? 'ranges per second' : 'throughput'}`,
      value: value(avg.api),
      unit,
      baseline: value(avg.node),
      baselineLabel: 'bare Node static server',
      better: 'higher',
      ...(c.aims
        ? {
            aim: `ratio >= ${aimNode}`,
            met: avg.api[ranged ? 'rps' : 'mbps'] / avg.node[ranged ? 'rps' : 'mbps'] >= aimNode,
          }
        : {}),
    });
    if (avg.nginx) {
      const aimNginx =
        c.aims && ranged
          ? { aim: `ratio >= ${AIMS.rangeVsNginx}`, met: avg.api.rps / avg.nginx.rps >= AIMS.rangeVsNginx }
          : {};
      figures.push({
        label: `${label}: ${ranged ? 'ranges per second' : 'throughput'} against nginx`,
        value: value(avg.api),
        unit,
        baseline: value(avg.nginx),
        baselineLabel: 'nginx',
        better: 'higher',
        ...aimNginx,
      });
    }
    figures.push({
      label: `${label}: latency p50`,
      value: round(avg.api.p50, 2),
      unit: 'ms',
      baseline: round(avg.node.p50, 2),
      baselineLabel: 'bare Node static server',
      better: 'lower',
    });
  }
  return { figures, table };
}
