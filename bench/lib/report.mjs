// Renders bench/REPORT.md from the sections every stage (and every child benchmark) returns:
// { title, baselineLabel?, figures: [{ label, value, unit, baseline?, baselineLabel?, better?, aim?, met? }], notes? }.

function fmt(n) {
  if (typeof n !== 'number') return String(n);
  if (Number.isInteger(n) || Math.abs(n) >= 100) return String(Math.round(n));
  return n.toFixed(2).replace(/\.?0+$/, '');
}

function ratio(f) {
  if (typeof f.baseline !== 'number' || typeof f.value !== 'number' || f.baseline === 0) return '';
  return (f.value / f.baseline).toFixed(2);
}

const verdict = (f) => (f.met === undefined ? '' : f.met ? 'yes' : '**no**');

function figureTable(figures) {
  const rows = figures.map((f) => {
    const baseline =
      f.baseline === undefined ? '' : `${fmt(f.baseline)} ${f.unit}${f.baselineLabel ? ` (${f.baselineLabel})` : ''}`;
    const better = f.better ? ` (${f.better} is better)` : '';
    return `| ${f.label} | ${fmt(f.value)} ${f.unit} | ${baseline} | ${ratio(f)}${ratio(f) ? better : ''} | ${f.aim ?? ''} | ${verdict(f)} |`;
  });
  return [
    '| Figure | Value | Baseline (same run) | Ratio value/baseline | Aim | Met |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function sectionMarkdown(section) {
  const parts = [`## ${section.title}`, ''];
  if (section.error) parts.push(`**This stage failed:** ${section.error}`, '');
  if (section.baselineLabel) parts.push(`Baseline: ${section.baselineLabel}.`, '');
  if (section.figures?.length) parts.push(figureTable(section.figures), '');
  for (const note of section.notes ?? []) parts.push(`- ${note}`);
  if (section.notes?.length) parts.push('');
  if (section.output) parts.push('```', section.output.trimEnd(), '```', '');
  return parts.join('\n');
}

/** The aims in one list: what was met and what falls short, across all sections. */
export function headline(sections) {
  const lines = [];
  for (const s of sections) {
    if (s.error) {
      lines.push(`| ${s.title} | stage failed | | **no** |`);
      continue;
    }
    for (const f of s.figures ?? []) {
      if (f.aim === undefined) continue;
      const shown = f.aim.startsWith('ratio')
        ? `${fmt(f.value)} ${f.unit} vs ${fmt(f.baseline)} ${f.unit} (ratio ${ratio(f)})`
        : `${fmt(f.value)} ${f.unit}`;
      lines.push(`| ${s.title}: ${f.label} | ${shown} | ${f.aim} | ${verdict(f)} |`);
    }
  }
  return ['| Figure | Measured | Aim | Met |', '|---|---|---|---|', ...lines].join('\n');
}

export function renderReport({ machine, database, mode, startedAt, seconds, sections, notes }) {
  return [
    '# Benchmark report',
    '',
    `Written by \`npm run bench\` (bench/run.mjs); do not edit by hand. How to run and the contract for benchmark scripts: bench/README.md.`,
    '',
    '| | |',
    '|---|---|',
    `| Date | ${startedAt.toISOString()} |`,
    `| Machine | ${machine.cores} cores (${machine.model}), ${machine.memoryGiB} GiB memory (${machine.freeGiB} GiB free at start), ${machine.os} |`,
    `| Load average at start / end | ${machine.loadStart} / ${machine.loadEnd} |`,
    `| Node | ${machine.node} |`,
    `| Database | ${database} |`,
    `| Run | ${mode}, ${Math.round(seconds)} s in all |`,
    '',
    ...notes.map((n) => `> ${n}`),
    '',
    '## Aims at a glance',
    '',
    headline(sections),
    '',
    'Ratios are value / baseline from the same run. For throughput a ratio near 1 or above is good; for latency and memory, near 1 or below.',
    '',
    ...sections.map(sectionMarkdown),
  ].join('\n');
}
