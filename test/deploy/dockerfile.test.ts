import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { validate } from 'dockerfile-utils';
import { SERVICE_NODE_FLAGS } from '../../src/service-node-flags.js';
import { REPO } from '../support/project-paths.js';
import { readDockerfile } from './read-dockerfile.js';

// hadolint is not installable here (its npm wrapper downloads the binary from GitHub and Debian
// does not package it), so the Dockerfile is linted with dockerfile-utils, the validator of
// the VS Code Docker extension, and the rules that matter here are checked one by one.
describe('the Dockerfile', () => {
  const { text, stages } = readDockerfile();
  const build = stages[0];
  const runtime = stages.at(-1);
  const packageJson = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8'));

  test('passes the Dockerfile linter without a warning', () => {
    assert.deepEqual(
      validate(text).map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
      [],
    );
  });

  test('builds in one stage with the dev dependencies and runs in another without them', () => {
    assert.ok(build && runtime && build !== runtime, 'two stages');
    assert.ok(build.commands.some((c) => /^npm ci\b/.test(c) && !c.includes('--omit=dev')));
    assert.ok(build.commands.includes('npm run build:package'));
    assert.ok(packageJson.scripts['build:package'], 'package.json has build:package');
    assert.ok(runtime.commands.some((c) => /^npm ci .*--omit=dev/.test(c)));
    assert.deepEqual(
      runtime.copies.filter((c) => c.from !== undefined),
      [{ from: build.name, sources: ['/app/dist/src'], target: './dist/src' }],
      'only the build output comes from the build stage',
    );
  });

  test('starts from a pinned Node image that meets engines, in every stage', () => {
    const engines = /^>=(\d+)\.(\d+)$/.exec(packageJson.engines.node);
    assert.ok(engines, packageJson.engines.node);
    for (const stage of stages) {
      const tag = /^node:(\d+)(?:\.(\d+))?[-\w.]*$/.exec(stage.image);
      assert.ok(tag, `${stage.image} names a node image with a version tag`);
      // node:20 is the newest 20.x, at least the 20.19 engines asks for
      assert.ok(Number(tag[1]) >= Number(engines[1]), stage.image);
      if (tag[2] !== undefined && tag[1] === engines[1]) {
        assert.ok(Number(tag[2]) >= Number(engines[2]), stage.image);
      }
    }
  });

  test('runs node dist/src/main.js start, with the service node flags, as the unprivileged node user', () => {
    assert.ok(runtime);
    assert.equal(runtime.user, 'node');
    assert.deepEqual(
      [...runtime.entrypoint, ...runtime.cmd],
      ['node', ...SERVICE_NODE_FLAGS, 'dist/src/main.js', 'start'],
    );
    // the o7-slack-relay command is a launcher that runs this same entry point
    assert.equal(packageJson.bin['o7-slack-relay'], 'bin/o7-slack-relay.js');
  });

  test('keeps its state where the user may write, and copies only what exists', () => {
    assert.ok(runtime);
    const stateDir = runtime.env.RELAY_STATE_DIR;
    assert.ok(stateDir?.startsWith('/'), 'RELAY_STATE_DIR is an absolute path');
    assert.ok(
      runtime.commands.includes(`chown node:node ${stateDir}`),
      'the state folder belongs to the node user',
    );
    const ignored = readFileSync(path.join(REPO, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim().replace(/\/$/, ''));
    for (const stage of stages) {
      for (const copy of stage.copies.filter((c) => c.from === undefined)) {
        for (const source of copy.sources) {
          assert.ok(existsSync(path.join(REPO, source)), `${source} exists`);
          assert.ok(!ignored.includes(source), `${source} is not in .dockerignore`);
        }
      }
    }
    assert.ok(ignored.includes('.env'), '.env (the tokens) stays out of the build context');
  });
});
