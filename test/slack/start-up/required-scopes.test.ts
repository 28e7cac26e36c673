import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  APP_TOKEN_METHODS,
  BOT_METHOD_SCOPES,
  compareScopes,
  REQUIRED_BOT_SCOPES,
} from '../../../src/slack/start-up/required-scopes.js';
import { MANIFEST_BOT_SCOPES } from '../../support/fake-slack/index.js';
import { REPO } from '../../support/project-paths.js';

/** The bot scopes listed under oauth_config.scopes.bot in manifest.yml. */
function manifestBotScopes(): string[] {
  const lines = readFileSync(path.join(REPO, 'manifest.yml'), 'utf8').split('\n');
  const start = lines.findIndex((line) => /^ {4}bot:\s*$/.test(line));
  assert.ok(start >= 0, 'manifest.yml has oauth_config.scopes.bot');
  const scopes: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const item = /^ {6}- ([\w:.-]+)/.exec(line);
    if (item) scopes.push(item[1] as string);
    else if (!/^\s*(#.*)?$/.test(line)) break;
  }
  return scopes;
}

/** Every `client.group.method(` call (or on a call's result) in src/, as `group.method`. */
function methodsCalledInSource(): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) {
        const text = readFileSync(file, 'utf8');
        const calls = text.matchAll(
          /(?:client|\))\.(auth|apps|chat|conversations|files|users|usergroups|views)((?:\.[a-zA-Z0-9]+)+)\(/g,
        );
        for (const call of calls) found.add(`${call[1]}${call[2]}`);
      }
    }
  };
  walk(path.join(REPO, 'src'));
  return found;
}

describe('the scopes the relay asks for', () => {
  test('manifest.yml asks for exactly the required bot scopes', () => {
    assert.deepEqual([...manifestBotScopes()].sort(), [...REQUIRED_BOT_SCOPES].sort());
  });

  test('the stand-in grants what the manifest asks for, as a workspace installing it would', () => {
    assert.deepEqual([...MANIFEST_BOT_SCOPES].sort(), [...manifestBotScopes()].sort());
  });

  test('every Web API method the code calls has its scopes in the table', () => {
    const known = new Set<string>([...Object.keys(BOT_METHOD_SCOPES), ...APP_TOKEN_METHODS]);
    const called = methodsCalledInSource();
    assert.ok(called.has('chat.postMessage') && called.has('users.info'), 'the scan finds calls');
    const unknown = [...called].filter((method) => !known.has(method));
    assert.deepEqual(unknown, [], 'methods called without a scope entry in required-scopes.ts');
  });

  test('no history scope: the relay never reads channel history', () => {
    assert.ok(!REQUIRED_BOT_SCOPES.some((scope) => scope.endsWith(':history')));
  });

  test('compareScopes names what is missing and what is granted without need', () => {
    const granted = [...REQUIRED_BOT_SCOPES.filter((s) => s !== 'files:write'), 'channels:history'];
    assert.deepEqual(compareScopes(granted), {
      missing: ['files:write'],
      extra: ['channels:history'],
    });
    assert.deepEqual(compareScopes(REQUIRED_BOT_SCOPES), { missing: [], extra: [] });
  });
});
