import type { Preview } from '../src/core/protocol/question.js';
import { BLOCK_KIT_LIMITS } from '../src/core/slack/block-kit-limits.js';
import { renderPreview } from '../src/core/slack/render-preview.js';
import { percentile } from './bench-support.js';

const place = { key: 'bench', revision: 'r1', questionIndex: 0 };
const FULL = BLOCK_KIT_LIMITS.markdownText;

/** Repeats `unit` up to about a full markdown block, then makes the text unique (no memo). */
const filled = (unit: (i: number) => string, sample: number): string => {
  let text = '';
  for (let i = 0; text.length < FULL - 40; i += 1) text += unit(i);
  return `${text}\n\nSample ${sample}.`;
};

/** An agent's plan: headings, lists with links, code spans, emphasis, a table. */
const plan = (i: number) =>
  i % 20 === 0
    ? `\n## Part ${i / 20}\n\n| step | file |\n|---|---|\n| ${i} | \`src/m${i}.ts\` |\n\n`
    : `- Step ${i}: *rewrite* [module ${i}](https://git.example/m/${i}) and run \`test ${i}\`.\n`;

/** Shapes the parser is slowest on that still get parsed (just inside the guards). */
const HARD: Record<string, (i: number) => string> = {
  '32-deep lists': () => `${'- '.repeat(32)}[a](https://x.example)\n`,
  '64-mark emphasis': () => `${'*'.repeat(64)}[a](b)${'*'.repeat(64)}\n`,
  'setext headings': () => 'a\n=\n[a](b)\n',
  'reference links': () => '[a][r] ',
};

function timeRender(content: string): number {
  const preview: Preview = { type: 'markdown', content };
  const started = performance.now();
  renderPreview(place, preview, FULL);
  return performance.now() - started;
}

/** Rendering a markdown preview of a full block the first time (links defused), in ms. */
export function measurePreviews(samples: number): {
  plan: number[];
  hard: Record<string, number>;
} {
  const planTimes = Array.from({ length: samples }, (_, s) => timeRender(filled(plan, s)));
  const hard = Object.fromEntries(
    Object.entries(HARD).map(([name, unit]) => [
      name,
      Math.max(...[0, 1, 2].map((s) => timeRender(filled(unit, s)))),
    ]),
  );
  return { plan: planTimes, hard };
}

/** One line for the bench output. */
export function previewLine(result: ReturnType<typeof measurePreviews>): string {
  const hard = Object.entries(result.hard)
    .map(([name, time]) => `${name} ${time.toFixed(0)} ms`)
    .join('; ');
  return `7.  markdown preview of ${FULL} characters, first render (links defused): plan with links p50 ${percentile(result.plan, 50).toFixed(1)} ms, p99 ${percentile(result.plan, 99).toFixed(1)} ms; slowest shapes still parsed (max of 3): ${hard}`;
}
