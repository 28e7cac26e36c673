import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
import { freePort } from '../test/support/relay-harness.js';
import { makeTempDir } from '../test/support/temp-dir.js';
import {
  hrNow,
  MAIN,
  ms,
  okPosts,
  percentile,
  procStat,
  socketConnected,
  startRelay,
  tapOneTap,
  until,
} from './bench-support.js';

/** What figure 12 measured, in ms per sample. */
export interface HookFigure {
  /** hook process spawned → the batch's chat.postMessage seen */
  toPost: number[];
  /** Allow tapped → the decision on the hook's stdout */
  toDecision: number[];
  /** CPU the hook process used for one call (user + system) */
  cpu: number[];
  /** a hook process given input it refuses at once (no relay asked): start and exit alone */
  floor: number[];
  /** CPU of that refused call */
  floorCpu: number[];
  /** `node -e ''`: a node process's start and exit alone, the least any hook process costs */
  bareNode: number[];
  /** the same prompt through the relay's ask API (`hook --relay`, loopback HTTP) */
  remote: { toPost: number[]; toDecision: number[]; cpu: number[] };
  /** the same prompt with `node dist/src/main.js hook`: its ~80 modules, not the bundle */
  unbundled: { toPost: number[]; toDecision: number[]; cpu: number[] };
}

/** The command `hook install` writes (which runs the hook's bundle) and the relay's own entry. */
const HOOK_COMMAND = path.resolve(path.dirname(MAIN), '../../bin/o7-slack-relay.js');

/** CPU ms of this process's children that have exited and been waited for (Linux /proc). */
async function childrenCpuMs(): Promise<number> {
  const fields = await procStat('self');
  return (Number(fields[13]) + Number(fields[14])) * 10; // cutime + cstime
}

/** A permission prompt as Claude Code writes it on the hook's stdin. */
const permissionCall = (cwd: string, i: number) =>
  JSON.stringify({
    session_id: `bench-session-${i}`,
    transcript_path: path.join(cwd, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PermissionRequest',
    tool_name: 'Bash',
    tool_input: { command: `npm test -- --shard ${i}`, description: 'Run the tests' },
  });

/** The relay's ask API in the bench: its port and the one token it knows. */
const ASK_TOKEN = `bench-${'0'.repeat(40)}`;

/**
 * Runs `o7-slack-relay hook` with `stdin`, asking the relay of `stateDir` (or, given an ask
 * API URL, that one); its stdout once it exits, and when it printed. HOME is `cwd`, where the
 * bundle's code cache is kept (~/.cache), as in Claude Code's environment.
 */
function runHook(
  where: { stateDir: string } | { url: string },
  cwd: string,
  stdin: string,
  entry = HOOK_COMMAND,
) {
  const relay = 'url' in where ? ['--relay', where.url] : ['--state-dir', where.stateDir];
  const child = spawn(process.execPath, [entry, 'hook', ...relay], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      ...('url' in where ? { RELAY_TOKEN: ASK_TOKEN } : {}),
    },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  let out = '';
  let printedAt: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    printedAt ??= hrNow();
    out += chunk.toString();
  });
  child.stdin.end(stdin);
  return new Promise<{ out: string; printedAt: number | undefined; code: number | null }>(
    (resolve) => child.once('close', (code) => resolve({ out, printedAt, code })),
  );
}

/**
 * Figure 12: `o7-slack-relay hook` as Claude Code runs it, one process per permission prompt,
 * beside a relay and the stand-in: `samples` prompts, each allowed with one tap.
 */
export async function measureHook(samples: number): Promise<HookFigure> {
  const slack = await startFakeSlack({ now: hrNow });
  const { dir, cleanup } = await makeTempDir('o7-bench-hook-');
  const stateDir = path.join(dir, 'state');
  const tokensFile = path.join(dir, 'ask-tokens');
  await writeFile(tokensFile, `bench ${ASK_TOKEN}\n`);
  const askPort = await freePort();
  const relay = startRelay(slack, dir, {
    RELAY_ASK_PORT: String(askPort),
    RELAY_ASK_TOKENS: tokensFile,
    RELAY_ASK_MAX_OPEN: '1000',
  });
  const figure: HookFigure = {
    toPost: [],
    toDecision: [],
    cpu: [],
    floor: [],
    floorCpu: [],
    bareNode: [],
    remote: { toPost: [], toDecision: [], cpu: [] },
    unbundled: { toPost: [], toDecision: [], cpu: [] },
  };
  /** One prompt through `where`, allowed with one tap; its times into `into`. */
  const askOnce = async (
    where: Parameters<typeof runHook>[0],
    i: number,
    into: HookFigure['remote'],
    entry = HOOK_COMMAND,
  ) => {
    const before = okPosts(slack).length;
    const cpuAt = await childrenCpuMs();
    const spawnedAt = hrNow();
    const done = runHook(where, dir, permissionCall(dir, i), entry);
    const post = await until(() => okPosts(slack)[before], 'the permission prompt posted');
    into.toPost.push(hrNow() - spawnedAt);
    const tappedAt = hrNow();
    await tapOneTap(slack, post); // the first button: Allow
    const { out, printedAt, code } = await done;
    if (code !== 0 || !out.includes('"behavior":"allow"') || printedAt === undefined)
      throw new Error(`bench: the hook did not allow (exit ${code}): ${out}`);
    into.toDecision.push(printedAt - tappedAt);
    into.cpu.push((await childrenCpuMs()) - cpuAt);
  };
  try {
    await socketConnected(slack);
    for (let i = 0; i < samples; i++) {
      const bareAt = hrNow();
      await new Promise((resolve) => spawn(process.execPath, ['-e', '']).once('close', resolve));
      figure.bareNode.push(hrNow() - bareAt);
      const floorCpuAt = await childrenCpuMs();
      const floorAt = hrNow();
      await runHook({ stateDir }, dir, 'not a hook call');
      figure.floor.push(hrNow() - floorAt);
      figure.floorCpu.push((await childrenCpuMs()) - floorCpuAt);

      await askOnce({ stateDir }, i, figure);
      // a hook whose relay is on another machine: the same, over the ask API on loopback
      await askOnce({ url: `http://127.0.0.1:${askPort}` }, samples + i, figure.remote);
      await askOnce({ stateDir }, 2 * samples + i, figure.unbundled, MAIN);
    }
    return figure;
  } finally {
    await relay.stop();
    await slack.close();
    await cleanup();
  }
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Figure 12's lines. */
export function hookLines(figure: HookFigure): string[] {
  const p = (xs: number[], at: number) => ms(percentile(xs, at));
  const n = figure.toPost.length;
  return [
    `12. hook, ${n} permission prompts (a process each): spawned → chat.postMessage p50 ${p(figure.toPost, 50)}, p99 ${p(figure.toPost, 99)}; Allow tapped → decision printed p50 ${p(figure.toDecision, 50)}, p99 ${p(figure.toDecision, 99)}; CPU per call ${ms(mean(figure.cpu))}  (target p50 ≤ 150 ms and ≤ 50 ms)`,
    `    through the ask API (hook --relay, loopback HTTP): spawned → chat.postMessage p50 ${p(figure.remote.toPost, 50)}, p99 ${p(figure.remote.toPost, 99)}; Allow tapped → decision printed p50 ${p(figure.remote.toDecision, 50)}, p99 ${p(figure.remote.toDecision, 99)}; CPU per call ${ms(mean(figure.remote.cpu))}`,
    `    unbundled (node dist/src/main.js hook, module by module): spawned → chat.postMessage p50 ${p(figure.unbundled.toPost, 50)}, p99 ${p(figure.unbundled.toPost, 99)}; CPU per call ${ms(mean(figure.unbundled.cpu))}`,
    `    floors: the same process refusing its input at once (its modules loaded, no relay asked) p50 ${p(figure.floor, 50)}, p99 ${p(figure.floor, 99)}, CPU ${ms(mean(figure.floorCpu))}; node -e '' p50 ${p(figure.bareNode, 50)}`,
  ];
}
