import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EnvelopeScan } from '../../../src/core/envelope/envelope.js';
import { findEnvelope } from '../../../src/core/envelope/find-envelope.js';
import {
  agentMessage,
  CORRECTION_TAIL,
  channelsQuestion,
  jsonBlock,
  numberedQuestion,
  rateLimitQuestion,
} from './envelope-samples.js';

const errorOf = (scan: EnvelopeScan): string => {
  assert.equal(scan.kind, 'malformed', JSON.stringify(scan));
  return scan.kind === 'malformed' ? scan.error : '';
};

const summary = { designPath: 'docs/plans/x/design.md', status: 'done' };

/** Fails unless `message` is refused for the one `problem`, in its `nth` ```json block. */
function assertOneProblem(message: string, problem: string, nth = '1st'): void {
  assert.equal(
    errorOf(findEnvelope(message)),
    [
      `The openQuestions envelope (the ${nth} \`\`\`json block of your message) could not be read: 1 problem.`,
      `  - ${problem}`,
      CORRECTION_TAIL,
    ].join('\n'),
  );
}

describe('findEnvelope: nothing to ask', () => {
  it('finds none in a message without any fenced block', () => {
    assert.deepEqual(findEnvelope('Wrote docs/plans/x/design.md. No open questions.'), {
      kind: 'none',
    });
  });

  it('finds none when no json block has the openQuestions key', () => {
    assert.deepEqual(findEnvelope(agentMessage(jsonBlock(summary))), { kind: 'none' });
  });

  it('skips a json block that does not parse and does not name the key', () => {
    assert.deepEqual(findEnvelope(agentMessage('```json\n{"status": done}\n```')), {
      kind: 'none',
    });
  });

  it('ignores openQuestions in a block tagged ts', () => {
    const ts = '```ts\nconst envelope = { "openQuestions": [] };\n```';
    assert.deepEqual(findEnvelope(agentMessage(ts)), { kind: 'none' });
  });

  it('skips a block whose top-level value is not an object', () => {
    const array = jsonBlock([{ openQuestions: [rateLimitQuestion] }]);
    assert.deepEqual(findEnvelope(agentMessage(array)), { kind: 'none' });
  });
});

describe('findEnvelope: an envelope', () => {
  it('reads one question, keeping unknown fields and filling a missing description', () => {
    const question = {
      ...rateLimitQuestion,
      priority: 'high',
      options: [{ label: 'Token bucket', icon: 'bucket' }, rateLimitQuestion.options[1]],
    };
    const scan = findEnvelope(agentMessage(jsonBlock({ openQuestions: [question], note: 1 })));
    assert.deepEqual(scan, {
      kind: 'envelope',
      envelope: {
        openQuestions: [
          {
            ...question,
            options: [
              { label: 'Token bucket', icon: 'bucket', description: '' },
              rateLimitQuestion.options[1],
            ],
          },
        ],
        note: 1,
      },
      notAsked: [],
    });
  });

  it('asks all of four questions', () => {
    const questions = [1, 2, 3, 4].map(numberedQuestion);
    const scan = findEnvelope(agentMessage(jsonBlock({ openQuestions: questions })));
    assert.ok(scan.kind === 'envelope');
    assert.equal(scan.envelope.openQuestions.length, 4);
    assert.deepEqual(scan.notAsked, []);
  });

  it('keeps a fifth question in the envelope and returns it as not asked', () => {
    const questions = [1, 2, 3, 4, 5].map(numberedQuestion);
    const scan = findEnvelope(agentMessage(jsonBlock({ openQuestions: questions })));
    assert.ok(scan.kind === 'envelope');
    assert.deepEqual(scan.envelope.openQuestions, questions);
    assert.deepEqual(scan.notAsked, [numberedQuestion(5)]);
  });

  it('honours multiSelect', () => {
    const scan = findEnvelope(agentMessage(jsonBlock({ openQuestions: [channelsQuestion] })));
    assert.ok(scan.kind === 'envelope');
    assert.equal(scan.envelope.openQuestions[0]?.multiSelect, true);
    assert.deepEqual(scan.envelope.openQuestions[0]?.options[2], {
      label: 'Pager',
      description: '',
    });
  });

  it('keeps long descriptions and headers in full', () => {
    const description = `${'Trade-off: '.repeat(60)}end.`;
    const header = 'A header far longer than the twelve characters of a chip';
    const question = { ...rateLimitQuestion, header, options: [{ label: 'Long', description }] };
    const scan = findEnvelope(agentMessage(jsonBlock({ openQuestions: [question] })));
    assert.ok(scan.kind === 'envelope');
    assert.equal(scan.envelope.openQuestions[0]?.header, header);
    assert.equal(scan.envelope.openQuestions[0]?.options[0]?.description, description);
  });

  it('accepts a single option', () => {
    const question = { ...rateLimitQuestion, options: [{ label: 'Only', description: 'd' }] };
    assert.equal(findEnvelope(jsonBlock({ openQuestions: [question] })).kind, 'envelope');
  });

  it('takes the envelope and ignores a summary block after it', () => {
    const envelope = { openQuestions: [rateLimitQuestion] };
    const scan = findEnvelope(agentMessage(jsonBlock(envelope), jsonBlock(summary)));
    assert.deepEqual(scan, { kind: 'envelope', envelope, notAsked: [] });
  });

  it('skips a summary block before the envelope', () => {
    const envelope = { openQuestions: [rateLimitQuestion] };
    const scan = findEnvelope(agentMessage(jsonBlock(summary), jsonBlock(envelope)));
    assert.deepEqual(scan, { kind: 'envelope', envelope, notAsked: [] });
  });

  it('takes the first of two envelopes', () => {
    const first = { openQuestions: [rateLimitQuestion] };
    const second = { openQuestions: [channelsQuestion] };
    const scan = findEnvelope(agentMessage(jsonBlock(first), jsonBlock(second)));
    assert.ok(scan.kind === 'envelope');
    assert.deepEqual(scan.envelope, first);
  });

  it('reads an envelope in a ~~~json block', () => {
    const text = `~~~json\n${JSON.stringify({ openQuestions: [rateLimitQuestion] })}\n~~~`;
    assert.equal(findEnvelope(agentMessage(text)).kind, 'envelope');
  });
});

describe('findEnvelope: a malformed envelope', () => {
  it('says where the JSON of the envelope block breaks, counting lines inside the block', () => {
    const broken =
      '```json\n{\n  "openQuestions": [\n    {"question": "Q" "header": "H"}\n  ]\n}\n```';
    assertOneProblem(
      agentMessage(jsonBlock(summary), broken),
      `invalid JSON at line 3, column 22 of the block: expected ',' or '}' after a property value, found '"'`,
      '2nd',
    );
  });

  it('reports a block cut short at the end of the block, not of a file', () => {
    const cut = '```json\n{"openQuestions": [{"question": "Q"\n```';
    assertOneProblem(
      cut,
      `invalid JSON at line 1, column 36 of the block: expected ',' or '}' after a property value, found the end of the block`,
    );
  });

  it('treats an unparsable block naming the key without quotes as the envelope', () => {
    const scan = findEnvelope('```json\n{openQuestions: []}\n```');
    assert.match(errorOf(scan), /invalid JSON at line 1, column 2 of the block/);
  });

  it('lets a broken first envelope win over a valid later one', () => {
    const broken = '```json\n{"openQuestions": [}\n```';
    const scan = findEnvelope(
      agentMessage(broken, jsonBlock({ openQuestions: [rateLimitQuestion] })),
    );
    assert.equal(scan.kind, 'malformed');
  });

  it('refuses an envelope nested past 64 levels, saying where, before parsing it', () => {
    const deep = `{"openQuestions": [], "extra": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    assertOneProblem(
      `\`\`\`json\n${deep}\n\`\`\``,
      `at extra${'[0]'.repeat(31)}…: expected at most 64 levels of nesting, found more at line 1, column 95`,
    );
  });

  it('refuses a key an option holds twice, which JSON.parse would settle by keeping the last', () => {
    const text = `{"openQuestions": [{"question": "Q?", "header": "H",\n  "options": [{"label": "A", "label": "B"}]}]}`;
    assertOneProblem(
      `\`\`\`json\n${text}\n\`\`\``,
      'at openQuestions[0].options[0].label: expected "label" once in its object, found it again at line 2, column 30; JSON readers keep only one of the two values, and not all the same one, so remove the other',
    );
  });

  it('skips a summary block with a repeated key, as it skips one that does not parse', () => {
    const summaryBlock = '```json\n{"status": "done", "status": "failed"}\n```';
    assert.deepEqual(findEnvelope(agentMessage(summaryBlock)), { kind: 'none' });
  });

  it('refuses a __proto__ field, which would turn into a prototype when copied', () => {
    const text = `{"openQuestions": [{"question": "Q?", "header": "H", "options": [{"label": "A"}], "__proto__": {"multiSelect": true}}]}`;
    assertOneProblem(
      `\`\`\`json\n${text}\n\`\`\``,
      'at openQuestions[0].__proto__: expected no field named "__proto__": JavaScript gives that name a special meaning, so the relay cannot keep it; rename or remove the field',
    );
  });

  it('refuses an openQuestions that is not an array', () => {
    assertOneProblem(
      jsonBlock({ openQuestions: rateLimitQuestion }),
      'at openQuestions: expected a non-empty array of question objects, found an object {"question":"How should rate limiting be enforced for unaut…',
    );
  });

  it('refuses an empty openQuestions: with nothing to ask the envelope is left out', () => {
    assertOneProblem(
      jsonBlock({ openQuestions: [] }),
      'at openQuestions: expected a non-empty array of question objects, found an empty array (with nothing to ask, leave the envelope out)',
    );
  });

  it('refuses a missing label (nothing to click) but fills a missing description', () => {
    const question = {
      ...rateLimitQuestion,
      options: [{ description: 'No label here.' }, { label: 'No description' }],
    };
    assertOneProblem(
      jsonBlock({ openQuestions: [question] }),
      'at openQuestions[0].options[0].label: "label" is missing; expected a non-empty string (the text the user clicks)',
    );
  });

  it('lists every problem in reading order', () => {
    const openQuestions = [
      { question: '', options: [], multiSelect: 'yes' },
      3,
      rateLimitQuestion,
      {
        question: 'Q',
        header: 'H',
        options: [
          { label: 'A', description: 7 },
          { label: 'A' },
          { label: 'Other…' },
          'B',
          { label: '  ' },
        ],
      },
    ];
    assert.equal(
      errorOf(findEnvelope(jsonBlock({ openQuestions }))),
      [
        'The openQuestions envelope (the 1st ```json block of your message) could not be read: 10 problems.',
        '  - at openQuestions[0].question: expected a non-empty string (the question put to the user), found ""',
        '  - at openQuestions[0].header: "header" is missing; expected a non-empty string (a short label for the question)',
        '  - at openQuestions[0].options: expected a non-empty array of {"label", "description"} objects, found an empty array',
        '  - at openQuestions[0].multiSelect: expected true or false, found "yes"',
        '  - at openQuestions[1]: expected an object with "question", "header" and "options", found 3',
        '  - at openQuestions[3].options[0].description: expected a string, found 7',
        '  - at openQuestions[3].options[1].label: expected a unique label, found "A" again (same as options[0])',
        '  - at openQuestions[3].options[2].label: expected a label other than "Other…", which the relay adds itself',
        '  - at openQuestions[3].options[3]: expected an object with "label" and "description", found "B"',
        '  - at openQuestions[3].options[4].label: expected a non-empty string (the text the user clicks), found "  "',
        CORRECTION_TAIL,
      ].join('\n'),
    );
  });

  it('checks questions past the fourth too', () => {
    const questions = [1, 2, 3, 4].map(numberedQuestion);
    const scan = findEnvelope(jsonBlock({ openQuestions: [...questions, { header: 'H' }] }));
    assert.match(errorOf(scan), /at openQuestions\[4\]\.question: "question" is missing/);
  });
});
