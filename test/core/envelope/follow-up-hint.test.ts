import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asksForFollowUpText } from '../../../src/core/envelope/follow-up-hint.js';
import { reposQuestion } from './envelope-samples.js';

describe('asksForFollowUpText', () => {
  it("recognises the questioner's canonical multi-repo description", () => {
    assert.equal(asksForFollowUpText(reposQuestion.options[1]?.description ?? ''), true);
    assert.equal(asksForFollowUpText(reposQuestion.options[0]?.description ?? ''), false);
  });

  for (const description of [
    'The orchestrator will follow up with a plain-text question.',
    'Pick this and we will ask a FOLLOW-UP free-text question.',
    'A followup asks for the text of the rule.',
    'The orchestrator follows up asking for the absolute paths.',
    'You will get a follow up question for the path.',
  ]) {
    it(`counts: ${description}`, () => assert.equal(asksForFollowUpText(description), true));
  }

  for (const description of [
    '',
    'Smallest change; we can follow up later with a migration.',
    'Reads plain text files from disk.',
    'Follow the path of least resistance.',
    'Uses the context of the request to follow upstream rules.',
    'Writes to the database only.',
  ]) {
    it(`does not count: ${JSON.stringify(description)}`, () =>
      assert.equal(asksForFollowUpText(description), false));
  }
});
