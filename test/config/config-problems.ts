import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load-config.js';
import { RelayError } from '../../src/errors.js';

/** The problem lines of the configuration error `env` causes; fails if `env` is accepted. */
export function configProblems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, '/p');
  } catch (error) {
    assert.ok(error instanceof RelayError);
    return error.message.split('\n').filter((line) => line.startsWith('  - '));
  }
  assert.fail('the configuration was accepted');
}
