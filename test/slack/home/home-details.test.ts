import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { webApi } from '@slack/bolt';
import { createHomeDetailSource } from '../../../src/slack/home/home-details.js';
import { startFakeSlack } from '../../support/fake-slack/index.js';
import { silentLogger } from '../../support/fake-slack/slack-clients.js';
import { captureLog } from '../../support/log-capture.js';
import { makeRecord } from '../../support/make-record.js';

const question = (seq: number) =>
  JSON.stringify({
    seq,
    questions: [{ id: 'ship', type: 'yes-no', prompt: `Ship batch ${seq}?` }],
  });

test('App Home agent-controlled FIFO as q-out file: refused and logged, other batches still read', async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'home-details-'));
  const slack = await startFakeSlack();
  t.after(async () => {
    await slack.close();
    await rm(dir, { recursive: true, force: true });
  });
  const runA = path.join(dir, 'run-a');
  const runB = path.join(dir, 'run-b');
  await mkdir(path.join(runA, 'qa'), { recursive: true });
  await mkdir(path.join(runB, 'qa'), { recursive: true });
  execFileSync('mkfifo', [path.join(runA, 'qa', 'q-out-001.json')]);
  await writeFile(path.join(runB, 'qa', 'q-out-001.json'), question(1));

  const { log, records: lines } = captureLog('debug');
  const client = new webApi.WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
  });
  const source = createHomeDetailSource({ client, log });
  const a = makeRecord(runA, 1);
  const b = makeRecord(runB, 1);

  // a FIFO used to block readFile forever, so the Home tab never rendered
  const details = await source.detailsFor([a, b]);
  assert.deepEqual(details.get(a.key), {});
  assert.deepEqual(details.get(b.key), { firstQuestion: 'Ship batch 1?' });
  const warning = lines.find((l) => l.msg === 'not reading question file for App Home');
  assert.equal(warning?.reason, 'not a regular file (a FIFO)');
  assert.equal(warning?.key, a.key);
});

test('App Home links come from the workspace URL without asking Slack, and from chat.getPermalink only without it', async (t) => {
  const slack = await startFakeSlack();
  t.after(() => slack.close());
  const client = new webApi.WebClient(slack.botToken, {
    slackApiUrl: slack.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
  });
  const posted = await client.chat.postMessage({ channel: 'C0RELAY01', text: 'batch' });
  const record = makeRecord('/runs/gone', 1, {
    presentation: { channel: 'C0RELAY01', ts: String(posted.ts), replies: [] },
  });
  const { permalink } = await client.chat.getPermalink({
    channel: 'C0RELAY01',
    message_ts: String(posted.ts),
  });
  const permalinkCalls = () => slack.calls.filter((c) => c.method === 'chat.getPermalink').length;
  const before = permalinkCalls();
  const { log } = captureLog('info');
  const { url } = await client.auth.test();

  const made = createHomeDetailSource({ client, log, workspaceUrl: url });
  assert.equal((await made.detailsFor([record])).get(record.key)?.link, permalink);
  assert.equal(permalinkCalls(), before, 'no call: the link is made');

  const asked = createHomeDetailSource({ client, log });
  assert.equal((await asked.detailsFor([record])).get(record.key)?.link, permalink);
  await asked.detailsFor([record]);
  assert.equal(permalinkCalls(), before + 1, 'asked once, then kept');
});
