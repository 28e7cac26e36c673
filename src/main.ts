#!/usr/bin/env node
import { hostname } from 'node:os';
import { config as loadDotenv } from 'dotenv';
import { readCommandLine } from './cli/command-line.js';
import { packageVersion } from './cli/package-version.js';
import type { RunningRelay } from './cli/start-command.js';
import { exitWith } from './exit-code.js';
import { missingServiceFlags, preferSmallHeap, START_WITH_SERVICE_FLAGS } from './node-tuning.js';
import { readStdin } from './read-stdin.js';
import { StopRequested, stopOnSignals } from './stop-signals.js';

/**
 * The composition root and the only place that exits the process: reads argv and the
 * environment, builds what the command needs, and turns failures into exit codes. Each command
 * loads its own modules when it runs: `check` or `--help` need neither Bolt nor Redis, and a
 * CLI that loads them all takes several times as long to answer.
 */
async function main(argv: string[]): Promise<number> {
  // Output piped into `head` and closed early is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const args = readCommandLine(argv);
  switch (args.command) {
    case 'help':
      out(args.text);
      return 0;
    case 'version':
      out(packageVersion());
      return 0;
    case 'usage-error':
      err(`${args.message}\n\n${args.usage}`);
      return 2;
    case 'check': {
      const { runCheck } = await import('./cli/check-command.js');
      return runCheck(args.paths, { out, err });
    }
    case 'preview': {
      const { runPreview } = await import('./cli/preview-command.js');
      return runPreview(args.file, { out, err });
    }
    case 'ask': {
      loadDotenv({ quiet: true });
      const { runAsk } = await import('./cli/ask-command.js');
      const stopping = stopOnSignals();
      try {
        return await runAsk(args.ask, {
          env: process.env,
          cwd: process.cwd(),
          readStdin: () => readStdin(err, stopping.signal),
          out,
          err,
          signal: stopping.signal,
        });
      } finally {
        stopping.close();
      }
    }
    case 'mcp': {
      loadDotenv({ quiet: true });
      const { runMcp } = await import('./mcp/mcp-command.js');
      // an MCP client closing its terminal sends SIGHUP
      const stopping = stopOnSignals(['SIGINT', 'SIGTERM', 'SIGHUP']);
      try {
        return await runMcp(args.mcp, {
          env: process.env,
          cwd: process.cwd(),
          err,
          signal: stopping.signal,
        });
      } finally {
        stopping.close();
      }
    }
    case 'hook': {
      const { runHookCommand } = await import('./claude-code/hook-command.js');
      return runHookCommand(args.hook, { out, err });
    }
    case 'doctor': {
      loadDotenv({ quiet: true });
      const [
        { runDoctor },
        { loadConfig },
        { createLogger },
        { findRunningRelay },
        { readStoredRecords },
        { processIsAlive },
      ] = await Promise.all([
        import('./cli/doctor-command.js'),
        import('./config/load-config.js'),
        import('./log/create-logger.js'),
        import('./ask/find-running-relay.js'),
        import('./store/read-stored-records.js'),
        import('./store/state-dir-lock.js'),
      ]);
      return runDoctor(
        loadConfig(process.env, process.cwd(), hostname(), 'doctor'),
        { out },
        {
          readRecords: readStoredRecords,
          async retryRefused(stateDir) {
            const pid = await findRunningRelay(stateDir);
            if (pid !== undefined) process.kill(pid, RETRY_REFUSED_SIGNAL);
            return pid;
          },
          redis: {
            host: hostname(),
            isAlive: processIsAlive,
            runningRelay: findRunningRelay,
            log: createLogger({ level: 'silent', pretty: false }),
          },
        },
      );
    }
    case 'audit': {
      loadDotenv({ quiet: true });
      const { runAudit } = await import('./audit/audit-command.js');
      return runAudit(args.audit, {
        env: process.env,
        cwd: process.cwd(),
        out,
        err,
        now: () => new Date(),
      });
    }
    case 'nodes': {
      loadDotenv({ quiet: true });
      const [{ runNodes }, { loadSharedConfig }, { createLogger }] = await Promise.all([
        import('./cli/nodes-command.js'),
        import('./config/load-config.js'),
        import('./log/create-logger.js'),
      ]);
      return runNodes(
        loadSharedConfig(process.env),
        { out, err },
        {
          log: createLogger({ level: 'silent', pretty: false }),
        },
      );
    }
    case 'start': {
      // First: a stop asked for while the relay loads, waits for Slack or Redis, connects or
      // scans its folders is as clean as one asked for while it runs; and V8 sized for a
      // long-lived process before anything of the relay is loaded.
      const stopping = stopOnSignals();
      preferSmallHeap(process.env);
      try {
        return await startRelay(stopping.signal);
      } finally {
        stopping.close();
      }
    }
  }
}

/**
 * `o7-slack-relay start`: the configuration (checked before the relay's modules load, so a
 * mistake in it is told at once), the logger, then the relay until `signal` stops it; 0 for
 * a clean stop, in whichever step of the start it came.
 */
async function startRelay(signal: AbortSignal): Promise<number> {
  loadDotenv({ quiet: true });
  const [{ loadConfig }, { createLogger }] = await Promise.all([
    import('./config/load-config.js'),
    import('./log/create-logger.js'),
  ]);
  const config = loadConfig(process.env, process.cwd());
  const log = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true });
  const sayStopping = () => {
    const reason: unknown = signal.reason;
    log.info({ signal: reason instanceof StopRequested ? reason.signal : undefined }, 'stopping');
  };
  if (signal.aborted) sayStopping();
  else signal.addEventListener('abort', sayStopping, { once: true });
  const stopped = (code: number) => {
    log.info('stopped');
    // Slack calls given up on at stop may still be retrying, and a connection given up on
    // while starting may still be trying: they must not keep a stopped relay alive. A second
    // is enough for the last log lines to drain.
    setTimeout(() => process.exit(code), 1000).unref();
    return code;
  };
  const [{ runStart }, { installSafetyNet }] = await Promise.all([
    import('./cli/start-command.js'),
    import('./safety-net.js'),
  ]);
  const missingFlags = missingServiceFlags(process.execArgv);
  if (missingFlags.length > 0) {
    log.info(
      { missingNodeFlags: missingFlags, startWith: START_WITH_SERVICE_FLAGS },
      'node was started without the flags npm start, the Docker image and the systemd unit give it: a few seconds after a burst of batches, V8 may spend a few tenths of a second of CPU handing memory back. startWith is the command with them (see docs/performance.md)',
    );
  }
  // `doctor`, once every check passes, asks for this (so may `kill -USR2 <pid>`). Node
  // ends a process on a signal it has no handler for, and `doctor` finds the relay by its
  // state-folder lock, taken while it starts: so the handler comes first, and a request
  // made while starting is kept until the relay runs.
  let relay: RunningRelay | undefined;
  let retryAsked = false;
  const retryRefused = () => {
    if (!relay) {
      retryAsked = true;
      log.info(
        { signal: RETRY_REFUSED_SIGNAL },
        'asked to show the batches Slack refused again while starting; doing so once started',
      );
      return;
    }
    log.info({ signal: RETRY_REFUSED_SIGNAL }, 'showing the batches Slack refused again');
    relay.retryRefused();
  };
  process.on(RETRY_REFUSED_SIGNAL, retryRefused);
  try {
    relay = await runStart(config, log, { signal });
  } catch (error) {
    process.off(RETRY_REFUSED_SIGNAL, retryRefused);
    if (!signal.aborted) throw error;
    // what the stop cut short (a connection closed under a try) is no error of the relay's
    if (!(error instanceof StopRequested)) log.debug({ err: error }, 'while stopping');
    return stopped(0);
  }
  const running = relay;
  if (retryAsked) retryRefused();
  installSafetyNet(log.child({ component: 'process' }));
  await new Promise((resolve) => {
    if (signal.aborted) resolve(undefined);
    else signal.addEventListener('abort', resolve, { once: true });
  });
  try {
    await running.stop();
    return stopped(0);
  } catch (error) {
    log.error({ err: error }, 'error while stopping');
    return stopped(1);
  }
}

/** The signal that has a running relay try again the batches Slack refused for good. */
const RETRY_REFUSED_SIGNAL = 'SIGUSR2';

exitWith(main(process.argv.slice(2)));
