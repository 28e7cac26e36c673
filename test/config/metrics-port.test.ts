import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load-config.js';
import { HTTP_ENV as http, SOCKET_ENV as socket } from './config-env.js';
import { configProblems as problems } from './config-problems.js';

describe('RELAY_METRICS_PORT', () => {
  test('off unless set; blank is off', () => {
    assert.equal('metricsPort' in loadConfig(socket, '/p'), false);
    assert.equal('metricsPort' in loadConfig({ ...socket, RELAY_METRICS_PORT: ' ' }, '/p'), false);
  });

  test('a port number, in either mode', () => {
    assert.equal(loadConfig({ ...socket, RELAY_METRICS_PORT: '9464' }, '/p').metricsPort, 9464);
    const both = loadConfig({ ...http, PORT: '8080', RELAY_METRICS_PORT: ' 9464 ' }, '/p');
    assert.equal(both.metricsPort, 9464);
  });

  test('anything but a port from 1 to 65535 is named with what to give', () => {
    for (const bad of ['0', '65536', 'metrics', '-1', '9464.5', '0x10']) {
      assert.deepEqual(problems({ ...socket, RELAY_METRICS_PORT: bad }), [
        '  - RELAY_METRICS_PORT must be a port number from 1 to 65535; leave it unset to serve no health and metrics',
      ]);
    }
  });

  test("in HTTP mode, not Slack's own port (PORT, 3000 by default)", () => {
    const [clash] = problems({ ...http, RELAY_METRICS_PORT: '3000' });
    assert.match(
      String(clash),
      /^ {2}- RELAY_METRICS_PORT is 3000, the port Slack's requests come to \(PORT\); give it a port of its own/,
    );
    assert.equal(problems({ ...http, PORT: '8080', RELAY_METRICS_PORT: '8080' }).length, 1);
    assert.equal(
      loadConfig({ ...socket, PORT: '3000', RELAY_METRICS_PORT: '3000' }, '/p').metricsPort,
      3000,
      'Socket Mode listens on no PORT',
    );
  });
});
