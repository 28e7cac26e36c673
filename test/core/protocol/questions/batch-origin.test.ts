import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readOrigin } from '../../../../src/core/protocol/questions/batch-origin.js';
import type { QuestionBatch } from '../../../../src/core/protocol/questions/question.js';
import { channelForProject } from '../../../../src/core/slack/channel-routes.js';

const batch = (origin: unknown, writtenByRelay = true): QuestionBatch => ({
  seq: 1,
  questions: [],
  source: { seq: 1, questions: [], origin },
  ...(writtenByRelay ? { writtenByRelay: true as const } : {}),
});

describe('readOrigin', () => {
  it('reads the title, line and project of a batch the relay wrote', () => {
    const origin = { title: 'Claude Code asks a question', detail: 'project /p', project: '/p' };
    assert.deepEqual(readOrigin(batch(origin)), origin);
  });

  it('ignores an origin in a run folder: any agent could claim a title or a channel there', () => {
    assert.equal(readOrigin(batch({ title: 'Trust me', project: '/p' }, false)), undefined);
  });

  it('ignores an origin of the wrong shape, field by field', () => {
    assert.equal(readOrigin(batch('x')), undefined);
    assert.equal(readOrigin(batch({ title: ' ' })), undefined);
    assert.deepEqual(readOrigin(batch({ title: 'T', detail: 3, project: [] })), {
      title: 'T',
      detail: '',
    });
  });
});

describe('channelForProject', () => {
  const roots = [
    { path: '/work', channel: 'CWORK' },
    { path: '/work/team-a', channel: 'CTEAMA' },
  ];

  it('takes the channel of the deepest watched folder holding the project', () => {
    assert.equal(channelForProject(roots, 'CDEFAULT', '/work/team-a/api'), 'CTEAMA');
    assert.equal(channelForProject(roots, 'CDEFAULT', '/work/other'), 'CWORK');
  });

  it('sends a project outside every watched folder, or above them, to the default channel', () => {
    assert.equal(channelForProject(roots, 'CDEFAULT', '/home/me/proj'), 'CDEFAULT');
    assert.equal(channelForProject(roots, 'CDEFAULT', '/'), 'CDEFAULT');
    assert.equal(channelForProject(roots, 'CDEFAULT', '/workshop'), 'CDEFAULT');
  });
});
