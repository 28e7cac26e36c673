import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  pauseUnlessStopped,
  StopRequested,
  stopOnSignals,
  unlessStopped,
} from '../src/stop-signals.js';

const handlers = () => ['SIGINT', 'SIGTERM'].map((name) => process.listenerCount(name));

// What a real SIGTERM or SIGINT does (the test runner has handlers of its own for them):
// stop-while-starting.test.ts and stop-during-outage.test.ts, on relay processes.
describe('stop signals', () => {
  test('a handler for each while listening; close takes them away without aborting', () => {
    const before = handlers();
    const stopping = stopOnSignals();
    assert.deepEqual(
      handlers(),
      before.map((n) => n + 1),
    );
    stopping.close();
    assert.deepEqual(handlers(), before);
    assert.equal(stopping.signal.aborted, false);
  });

  test('unlessStopped: the work’s outcome, or the stop’s reason as soon as it comes', async () => {
    assert.equal(await unlessStopped(Promise.resolve(1), undefined), 1);
    const controller = new AbortController();
    assert.equal(await unlessStopped(Promise.resolve(2), controller.signal), 2);
    await assert.rejects(unlessStopped(Promise.reject(new Error('no')), controller.signal), /no/);
    const never = unlessStopped(new Promise(() => {}), controller.signal);
    const pause = pauseUnlessStopped(3_600_000, controller.signal);
    const stop = new StopRequested('SIGINT');
    controller.abort(stop);
    await assert.rejects(never, (error) => error === stop);
    await assert.rejects(pause, (error) => error === stop);
    await assert.rejects(unlessStopped(Promise.resolve(3), controller.signal), (e) => e === stop);
    await pauseUnlessStopped(1, undefined);
  });
});
