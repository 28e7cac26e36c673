import type { Preview } from '../src/core/protocol/questions/question.js';
import { BLOCK_KIT_LIMITS } from '../src/core/slack/layout/block-kit-limits.js';
import { renderPreview } from '../src/core/slack/messages/render-preview.js';
import { hostileMarkdown } from '../test/support/hostile-markdown.js';
import { percentile } from './bench-support.js';

const place = { key: 'bench', revision: 'r1', questionIndex: 0 };
const FULL = BLOCK_KIT_LIMITS.markdownText;

/** Repeats `unit` up to a full markdown block; the sample number makes each text new (no memo). */
const filled = (unit: (i: number, sample: number) => string, sample: number): string => {
  let text = '';
  for (let i = 0; text.length < FULL - 40; i += 1) text += unit(i, sample);
  return `${text.slice(0, FULL - 40)}\n\nSample ${sample}.`;
};

/** An agent's plan: headings, lists with a link on each line, code spans, emphasis, a table. */
const plan = (i: number, sample: number) =>
  i % 20 === 0
    ? `\n## Part ${i / 20}\n\n| step | file |\n|---|---|\n| ${i} | \`src/m${i}.ts\` |\n\n`
    : `- Step ${i}: *rewrite* [module ${i}](https://git.example/m/${sample}/${i}) and run \`test ${i}\`.\n`;

/** Design notes: prose with a few links, an autolink, a quote and code with `<` in it. */
const notes = (i: number, sample: number) =>
  i % 6 === 0
    ? `\n\`\`\`ts\nexport function step${i}<T>(items: Array<T>): Map<string, T> {\n  return new Map();\n}\n\`\`\`\n\n`
    : i % 6 === 3
      ? `> **Note ${i}:** see <https://docs.example/${sample}/${i}> and the [design](https://d.example/${i} "design").\n\n`
      : `The relay reads item ${i} once, keeps it in \`cache.get(${i})\` and _never_ re-reads it; see [issue ${i}](https://t.example/${sample}/${i}) for why, and [the test][t${i}].\n\n[t${i}]: https://git.example/test/${i}\n\n`;

const REALISTIC = { plan, notes };

/**
 * The simplest code doing comparable work, as a floor: one regular expression that rewrites
 * every `[text](destination)` of the same text the way the defuser would.
 */
const LINK = /\[([^\]\n]*)\]\(([^)\s]*)\)/g;
const floor = (text: string): string => text.replace(LINK, '\\[$1\\] ($2)');

function timeRender(content: string): number {
  const preview: Preview = { type: 'markdown', content };
  const started = performance.now();
  renderPreview(place, preview, FULL);
  return performance.now() - started;
}

function timeFloor(content: string): number {
  const started = performance.now();
  floor(content);
  return performance.now() - started;
}

/** Rendering markdown previews of a full block the first time (links defused), in ms. */
export function measurePreviews(samples: number): {
  realistic: Record<string, { render: number[]; floor: number[] }>;
  hostile: { name: string; time: number }[];
  /** the warm-up renders, as a relay just started renders */
  cold: number[];
} {
  // warm up the parser and the code around it, as a relay that has rendered before would be:
  // V8 is still compiling them for the first hundred renders or so, some then 10-50 ms
  const cold = [plan, notes, plan, notes].flatMap((unit, round) =>
    Array.from({ length: WARM_UP / 4 }, (_, s) => timeRender(filled(unit, -1 - s - 100 * round))),
  );
  const realistic = Object.fromEntries(
    Object.entries(REALISTIC).map(([name, unit]) => {
      const texts = Array.from({ length: samples }, (_, s) => filled(unit, s));
      return [name, { render: texts.map(timeRender), floor: texts.map(timeFloor) }];
    }),
  );
  // each of the three tries is a new text (a space longer), so the memo does not answer
  const hostile = Object.entries(hostileMarkdown(FULL - 20)).map(([name, text]) => ({
    name,
    time: Math.max(...[0, 1, 2].map((s) => timeRender(text + ' '.repeat(s)))),
  }));
  return { realistic, hostile, cold };
}

/** Renders before the measured ones. */
const WARM_UP = 120;

/** Lines for the bench output. */
export function previewLines(result: ReturnType<typeof measurePreviews>): string[] {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const fine = (value: number) => `${value.toFixed(2)} ms`;
  const realistic = Object.entries(result.realistic).map(
    ([name, { render, floor: floorTimes }]) =>
      `${name} p50 ${ms(percentile(render, 50))}, p99 ${ms(percentile(render, 99))} (floor p50 ${fine(percentile(floorTimes, 50))}, p99 ${fine(percentile(floorTimes, 99))})`,
  );
  const slowest = [...result.hostile].sort((a, b) => b.time - a.time);
  const hostileTimes = result.hostile.map((h) => h.time);
  return [
    `7.  markdown preview of ${FULL} characters, first render (links defused), beside a floor (one regex rewriting the same text's links): ${realistic.join('; ')}  (target p99 ≤ 10 ms)`,
    `    the ${result.cold.length} renders before those, as a relay just started renders (V8 still compiling): p50 ${ms(percentile(result.cold, 50))}, max ${ms(Math.max(...result.cold))}`,
    `    ${result.hostile.length} hostile shapes (max of 3 each): p50 ${ms(percentile(hostileTimes, 50))}, slowest ${slowest
      .slice(0, 3)
      .map((h) => `${h.name} ${ms(h.time)}`)
      .join(', ')}`,
  ];
}
