import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import {
  combinedState,
  followSocketConnections,
  type SlackConnectionState,
} from '../../../src/slack/transport/socket-connection.js';

describe('combinedState', () => {
  const cases: [SlackConnectionState[], SlackConnectionState][] = [
    [['connected', 'disconnected'], 'connected'],
    [['reconnecting', 'connected'], 'connected'],
    [['disconnected', 'reconnecting'], 'reconnecting'],
    [['connecting', 'disconnected'], 'connecting'],
    [['disconnected', 'disconnected'], 'disconnected'],
    [['closed', 'disconnected'], 'disconnected'],
    [['closed', 'closed'], 'closed'],
    [['refused', 'disconnected'], 'disconnected'],
    [['closed', 'refused'], 'refused'],
    [[], 'connecting'],
  ];
  for (const [states, expected] of cases) {
    test(`${states.join(' + ') || 'none started'} → ${expected}`, () => {
      assert.equal(combinedState(states), expected);
    });
  }
});

describe('followSocketConnections', () => {
  function follow() {
    const clients = [new EventEmitter(), new EventEmitter()];
    const reported: SlackConnectionState[] = [];
    followSocketConnections(clients, (state) => reported.push(state));
    return { clients, reported };
  }

  test('one connection up is enough; the relay is disconnected only when both are', () => {
    const { clients, reported } = follow();
    const [a, b] = clients as [EventEmitter, EventEmitter];
    a.emit('connecting');
    a.emit('connected');
    // the second starts later: until then only the first counts
    assert.deepEqual(reported, ['connecting', 'connected']);
    b.emit('connecting');
    b.emit('connected');
    a.emit('close');
    a.emit('reconnecting');
    b.emit('close');
    a.emit('connecting');
    a.emit('connected');
    assert.deepEqual(reported, [
      'connecting',
      'connected',
      'connected',
      'connected',
      'connected',
      'connected',
      'reconnecting',
      'connecting',
      'connected',
    ]);
  });

  test("the relay's own stop is no outage: a closed connection ignores its client's close", () => {
    const { clients, reported } = follow();
    const [a, b] = clients as [EventEmitter, EventEmitter];
    for (const client of [a, b]) {
      client.emit('connecting');
      client.emit('connected');
    }
    reported.length = 0;
    for (const client of [a, b]) {
      client.emit('disconnecting');
      client.emit('close');
      client.emit('disconnected');
    }
    assert.deepEqual(reported, ['connected', 'closed']);
  });

  test('a connection the client gave up on stays refused until it starts again', () => {
    const clients = [new EventEmitter(), new EventEmitter()];
    const reported: SlackConnectionState[] = [];
    const connections = followSocketConnections(clients, (state) => reported.push(state));
    const [a, b] = clients as [EventEmitter, EventEmitter];
    for (const client of [a, b]) {
      client.emit('connecting');
      client.emit('connected');
      client.emit('close');
      client.emit('reconnecting');
    }
    reported.length = 0;
    connections.refused(0);
    // the other is still trying: that is the more hopeful state
    assert.deepEqual(reported, ['reconnecting']);
    connections.refused(1);
    a.emit('close');
    assert.deepEqual(reported, ['reconnecting', 'refused']);
    a.emit('connecting');
    a.emit('connected');
    assert.deepEqual(reported, ['reconnecting', 'refused', 'connecting', 'connected']);
  });
});
