import { App } from '@slack/bolt';
import { startFakeSlack } from './index.js';
import { silentLogger } from './slack-clients.js';
const fake = await startFakeSlack();
const app = new App({ token: fake.botToken, appToken: fake.appToken, socketMode: true, logger: silentLogger, clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } } });
await app.start();
console.log('started', fake.connectionCount);
await app.stop();
await fake.close();
console.log('closed');
setTimeout(() => {
  const handles = (process as any)._getActiveHandles();
  console.log(handles.map((h: any) => h.constructor.name + ' ' + (h._idleTimeout ?? '') + ' ' + (h._onTimeout?.toString().slice(0, 120) ?? '')));
}, 500).unref();
