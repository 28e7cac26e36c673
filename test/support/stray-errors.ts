// A process that throws where nothing catches and rejects a promise nobody awaits, with or
// without the relay's safety net (`--net`), then says whether it is still running.
import { pino } from 'pino';
import { installSafetyNet } from '../../src/safety-net.js';

if (process.argv.includes('--net')) installSafetyNet(pino({ base: null }));
setTimeout(() => {
  throw new Error('thrown in a timer');
}, 10);
setTimeout(() => {
  void Promise.reject(new Error('rejected, never awaited'));
}, 20);
setTimeout(() => {
  process.stdout.write('{"msg":"still serving"}\n');
}, 200);
