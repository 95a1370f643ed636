// `npm run bench -- --merge bench:a,bench:b`: runs only those benchmark scripts and merges their
// sections into the committed bench/REPORT.md instead of rewriting it whole (the full run takes
// about 15 minutes on the 2-core machine). Each merged section replaces the one of the same title,
// or comes before the sections added by hand (else at the end); its rows in "Aims at a glance"
// replace the old ones; and it says when it ran and the machine's load then, since the report's
// header describes the full run.
import { headline, sectionMarkdown } from './report.mjs';

const HEADING = /^## /m;

/** The report split into its preamble and its `## ` sections, each with its title. */
function splitSections(text) {
  const parts = text.split(/^(?=## )/m);
  const preamble = HEADING.test(parts[0]) ? '' : parts.shift();
  return { preamble, sections: parts.map((body) => ({ title: body.slice(3, body.indexOf('\n')), body })) };
}

/** Replaces the aims rows of `title` in the "Aims at a glance" section's table by `rows`. */
function mergeAims(body, title, rows) {
  const lines = body.split('\n');
  const kept = lines.filter(
    (line) => !line.startsWith(`| ${title}: `) && !line.startsWith(`| ${title} | stage failed`),
  );
  const lastRow = kept.findLastIndex((line) => line.startsWith('|'));
  kept.splice(lastRow + 1, 0, ...rows);
  return kept.join('\n');
}

export function mergeIntoReport(text, sections, { ranAt, loadStart, loadEnd, command }) {
  const { preamble, sections: existing } = splitSections(text);
  for (const section of sections) {
    const stamped = {
      ...section,
      notes: [
        ...(section.notes ?? []),
        `Merged into this report by \`${command}\` at ${ranAt.toISOString()} (load average at start / end: ${loadStart} / ${loadEnd}); the header's date and load are the full run's.`,
      ],
    };
    const body = `${sectionMarkdown(stamped)}\n`;
    const at = existing.findIndex((s) => s.title === section.title);
    if (at >= 0) existing[at] = { title: section.title, body };
    else {
      const byHand = existing.findIndex((s) => /added by hand/.test(s.title));
      existing.splice(byHand >= 0 ? byHand : existing.length, 0, { title: section.title, body });
    }
    const aims = existing.find((s) => s.title === 'Aims at a glance');
    const rows = headline([section]).split('\n').slice(2);
    if (aims) aims.body = mergeAims(aims.body, section.title, rows);
  }
  return preamble + existing.map((s) => s.body).join('');
}
