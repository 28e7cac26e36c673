import { createHash } from 'node:crypto';

/**
 * Names of everything shared mode keeps in Redis, all under one namespace (`o7relay` unless
 * told otherwise, e.g. by tests sharing a server). Node names never hold `:` (see
 * `NODE_NAME`), and runs are named by a hash of their folder, so `:` separates parts safely.
 */
export interface RedisKeys {
  /** INCR counter: every write takes the next value as its record's version */
  clock: string;
  /** HASH seq → `<version>|<record JSON>` for one run of one node */
  run(node: string, runDir: string): string;
  /** SET of `<node>:<runId>`, every run that has records */
  runs: string;
  /** HASH batch key → `<node>:<runId>:<seq>`, where each batch is */
  batchIndex: string;
  /** pub/sub channel: every record write and forget, in the order Redis did them */
  changes: string;
  /** HASH `<kind>\n<path>` → ISO time: the notices one node gave */
  notices(node: string): string;
  /** STRING: who holds a node name, with a time to live */
  lease(node: string): string;
  /** what every lease key starts with; the node name follows */
  leasePrefix: string;
  /** HASH node → last heartbeat (ms since the epoch) */
  nodes: string;
  /** HASH batch key → the batch's questions as its relay read them (for the other relays) */
  questions: string;
  /** STREAM of what one node's relay is asked to do with its run's files (Submit, Cancel) */
  work(node: string): string;
  /** pub/sub channel: the outcomes of that work, for the relay that asked */
  replies: string;
  /** STRING: the key sealing form metadata, one for every relay, so any of them can check */
  sealKey: string;
  /** HASH channel → JSON `{ts, keys}`: each channel's digest message (one for the team) */
  digests: string;
  /** STRING, expiring: the relay that keeps every channel's digest now */
  digestKeeper: string;
  /** STRING, expiring: people were told that this batch's answers wait for its relay */
  waitingNote(batchKey: string): string;
  /** STRING, expiring after Slack's signing window: a form submission was acted on */
  submittedView(submission: string): string;
  /** The member of `runs` (and prefix of `batchIndex` values) for a node's run. */
  runMember(node: string, runDir: string): string;
  /** The run key of a `runs` member. */
  runOfMember(member: string): string;
}

/** The Redis key names under `namespace`. */
export function redisKeys(namespace = 'o7relay'): RedisKeys {
  const ns = namespace;
  const runMember = (node: string, runDir: string) => `${node}:${runId(runDir)}`;
  return {
    clock: `${ns}:clock`,
    run: (node, runDir) => `${ns}:run:${runMember(node, runDir)}`,
    runs: `${ns}:runs`,
    batchIndex: `${ns}:batches`,
    changes: `${ns}:changes`,
    notices: (node) => `${ns}:notices:${node}`,
    lease: (node) => `${ns}:lease:${node}`,
    leasePrefix: `${ns}:lease:`,
    nodes: `${ns}:nodes`,
    questions: `${ns}:questions`,
    work: (node) => `${ns}:work:${node}`,
    replies: `${ns}:replies`,
    sealKey: `${ns}:seal-key`,
    digests: `${ns}:digests`,
    digestKeeper: `${ns}:digest-keeper`,
    waitingNote: (batchKey) => `${ns}:waiting-note:${batchKey}`,
    submittedView: (submission) => `${ns}:submitted-view:${submission}`,
    runMember,
    runOfMember: (member) => `${ns}:run:${member}`,
  };
}

/** A run folder's short stable name: paths hold `:` and are long. */
export function runId(runDir: string): string {
  return createHash('sha256').update(runDir).digest('hex').slice(0, 32);
}
