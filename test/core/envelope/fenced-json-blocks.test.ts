import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findFencedJsonBlocks } from '../../../src/core/envelope/fenced-json-blocks.js';

const contents = (message: string): string[] =>
  findFencedJsonBlocks(message).map((block) => block.content);

describe('findFencedJsonBlocks', () => {
  it('finds ```json and ~~~json blocks in order, numbering json blocks only', () => {
    const message = [
      'Intro',
      '```ts',
      'const a = 1;',
      '```',
      '```json',
      '{"a": 1}',
      '```',
      '~~~json',
      '{"b": 2}',
      '~~~',
    ].join('\n');
    assert.deepEqual(findFencedJsonBlocks(message), [
      { number: 1, content: '{"a": 1}' },
      { number: 2, content: '{"b": 2}' },
    ]);
  });

  it('reads the info string case-insensitively, with spaces around it', () => {
    assert.deepEqual(contents('```JSON  \n1\n```\n```Json\n2\n```\n``` json\n3\n```'), [
      '1',
      '2',
      '3',
    ]);
  });

  it('skips blocks tagged with anything else, including jsonc and json5', () => {
    assert.deepEqual(
      contents('```jsonc\n1\n```\n```json5\n2\n```\n```\n3\n```\n```js\n4\n```'),
      [],
    );
  });

  it('closes a block only with a fence of the same kind at least as long', () => {
    const message = ['````json', '{"text": "a', '```', '~~~~', 'b"}', '`````', 'after'].join('\n');
    assert.deepEqual(contents(message), ['{"text": "a\n```\n~~~~\nb"}']);
  });

  it('does not treat a json fence quoted inside another block as a block', () => {
    const message = [
      '````markdown',
      'Example:',
      '```json',
      '{"openQuestions": []}',
      '```',
      '````',
      '```json',
      '{"real": true}',
      '```',
    ].join('\n');
    assert.deepEqual(contents(message), ['{"real": true}']);
  });

  it("removes the opening fence's indentation from each line, and no more", () => {
    assert.deepEqual(contents('  ```json\n  {\n      "a": 1\n }\n  ```'), ['{\n    "a": 1\n}']);
  });

  it('runs a block left open to the end of the message', () => {
    assert.deepEqual(contents('text\n```json\n{"a":\n 1}'), ['{"a":\n 1}']);
  });

  it('reads CRLF messages', () => {
    assert.deepEqual(contents('```json\r\n{"a": 1}\r\n```\r\n'), ['{"a": 1}']);
  });

  it('ignores inline code and fences indented four spaces or more', () => {
    assert.deepEqual(contents('```json {"a": 1}```\n\n    ```json\n    1\n    ```'), []);
  });

  it('finds nothing in a message without fences', () => {
    assert.deepEqual(findFencedJsonBlocks('No questions; wrote docs/plans/x/design.md.'), []);
  });
});
