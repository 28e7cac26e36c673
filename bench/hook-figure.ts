import { spawn } from 'node:child_process';
import path from 'node:path';
import { startFakeSlack } from '../test/support/fake-slack/index.js';
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
}

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

/** Runs `o7-slack-relay hook` with `stdin`; its stdout once it exits, and when it printed. */
function runHook(stateDir: string, cwd: string, stdin: string) {
  const child = spawn(process.execPath, [MAIN, 'hook', '--state-dir', stateDir], {
    cwd,
    env: { PATH: process.env.PATH ?? '' },
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
  const relay = startRelay(slack, dir);
  const figure: HookFigure = {
    toPost: [],
    toDecision: [],
    cpu: [],
    floor: [],
    floorCpu: [],
    bareNode: [],
  };
  try {
    await socketConnected(slack);
    for (let i = 0; i < samples; i++) {
      const bareAt = hrNow();
      await new Promise((resolve) => spawn(process.execPath, ['-e', '']).once('close', resolve));
      figure.bareNode.push(hrNow() - bareAt);
      const floorCpuAt = await childrenCpuMs();
      const floorAt = hrNow();
      await runHook(stateDir, dir, 'not a hook call');
      figure.floor.push(hrNow() - floorAt);
      figure.floorCpu.push((await childrenCpuMs()) - floorCpuAt);

      const before = okPosts(slack).length;
      const cpuAt = await childrenCpuMs();
      const spawnedAt = hrNow();
      const done = runHook(stateDir, dir, permissionCall(dir, i));
      const post = await until(() => okPosts(slack)[before], 'the permission prompt posted');
      figure.toPost.push(hrNow() - spawnedAt);
      const tappedAt = hrNow();
      await tapOneTap(slack, post); // the first button: Allow
      const { out, printedAt, code } = await done;
      if (code !== 0 || !out.includes('"behavior":"allow"') || printedAt === undefined)
        throw new Error(`bench: the hook did not allow (exit ${code}): ${out}`);
      figure.toDecision.push(printedAt - tappedAt);
      figure.cpu.push((await childrenCpuMs()) - cpuAt);
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
    `    floors: the same process refusing its input at once (its modules loaded, no relay asked) p50 ${p(figure.floor, 50)}, p99 ${p(figure.floor, 99)}, CPU ${ms(mean(figure.floorCpu))}; node -e '' p50 ${p(figure.bareNode, 50)}`,
  ];
}
