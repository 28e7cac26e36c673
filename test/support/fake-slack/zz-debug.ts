import { App } from '@slack/bolt';
import { startFakeSlack } from './index.js';
import { silentLogger, webClientFor } from './slack-clients.js';
const fake = await startFakeSlack();
const app = new App({ token: fake.botToken, appToken: fake.appToken, socketMode: true, logger: silentLogger, clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } } });
await app.start();
app.action('send', async ({ ack }) => { await ack(); });
const posted = await webClientFor(fake).chat.postMessage({ channel: 'C0RELAY01', text: 'x', blocks: [{ type: 'actions', block_id: 'go', elements: [{ type: 'button', action_id: 'send', text: { type: 'plain_text', text: 'S' } }] }] });
const r = await fake.clickButton({ channel: 'C0RELAY01', ts: String(posted.ts), actionId: 'send', user: 'U0ALICE01' });
console.log('clicked', r.acked);
await app.stop();
await fake.close();
console.log('closed');
const t0 = Date.now();
process.on('exit', () => console.log('exit after', Date.now() - t0));
setTimeout(() => {
  const handles = (process as any)._getActiveHandles();
  console.log(handles.map((h: any) => h.constructor.name + ' ' + (h._idleTimeout ?? '') + ' ' + (h._onTimeout?.toString().slice(0, 200) ?? '')));
}, 500).unref();
