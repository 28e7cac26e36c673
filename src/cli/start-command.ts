import type { Logger } from 'pino';
import type { Config } from '../config/config-schema.js';
import { watchRuns } from '../fs/watch-runs.js';
import { createBatchQueue } from '../queue/batch-queue.js';
import { createSlackApp } from '../slack/create-slack-app.js';
import { registerAnswerActions } from '../slack/listeners/answer-actions.js';
import { registerFreeWriteView } from '../slack/listeners/free-write-view.js';
import { registerOptionSuggestions } from '../slack/listeners/option-suggestions.js';
import { createSlackPresenter } from '../slack/slack-presenter.js';
import { openFileStateStore } from '../store/file-state-store.js';

/** A running relay. */
export interface RunningRelay {
  stop(): Promise<void>;
}

/**
 * Wires the relay together: state store, Slack app, queue, watcher. Start order matters:
 * Slack is connected before batches are shown, and the first sync waits for the watcher's
 * initial scan so that answered batches are never shown again.
 */
export async function runStart(config: Config, log: Logger): Promise<RunningRelay> {
  const store = await openFileStateStore(config.stateDir, {
    log: log.child({ component: 'store' }),
  });
  const app = createSlackApp(config.slack, log);
  const presenter = createSlackPresenter({
    client: app.client,
    channel: config.slack.channelId,
    log: log.child({ component: 'slack' }),
  });
  const queue = createBatchQueue({ store, presenter, log: log.child({ component: 'queue' }) });
  registerAnswerActions(app, { queue, log });
  registerFreeWriteView(app, { queue, log });
  registerOptionSuggestions(app, { queue });
  app.error(async (err) => {
    log.error({ err }, 'unhandled error in a Slack listener');
  });

  log.info({ mode: config.slack.mode, apiUrl: config.slack.apiUrl }, 'connecting to Slack');
  if (config.slack.mode === 'http') await app.start(config.slack.port);
  else await app.start();
  const watcher = watchRuns(config.watchPaths, (event) => queue.notify(event), {
    log: log.child({ component: 'watcher' }),
    usePolling: config.poll,
  });
  await watcher.ready;
  queue.start();
  log.info(
    { watch: config.watchPaths, channel: config.slack.channelId, stateDir: config.stateDir },
    'relay ready',
  );

  return {
    async stop() {
      await watcher.close();
      await queue.close();
      await app.stop();
      await store.close();
    },
  };
}
