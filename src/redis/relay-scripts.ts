import type { CommandParser } from '@redis/client';
import { defineScript } from '@redis/client';

// Stored values are `<version>|<record JSON>`; versions are taken from one counter, so they
// only grow, even across a forget and a new record in the same place.

/**
 * Writes one record. With an expected version, only if the stored one still has it (0: none
 * stored), else answers `conflict` and the stored value, so the caller can redo its change on
 * it without another round trip. A batch key held by another place is refused (`taken`).
 * Publishes the new value on the changes channel, with who wrote it (`ARGV[7]`).
 */
const WRITE_RECORD = `
local loc = ARGV[2] .. ':' .. ARGV[3]
local owner = redis.call('HGET', KEYS[3], ARGV[4])
if owner and owner ~= loc then return {'taken', owner} end
local current = redis.call('HGET', KEYS[1], ARGV[3])
if ARGV[5] ~= '' then
  local version = 0
  if current then version = tonumber(string.match(current, '^(%d+)|')) end
  if version ~= tonumber(ARGV[5]) then return {'conflict', current or ''} end
end
local version = redis.call('INCR', KEYS[4])
local value = version .. '|' .. ARGV[6]
redis.call('HSET', KEYS[1], ARGV[3], value)
redis.call('SADD', KEYS[2], ARGV[2])
if not owner then
  if current then
    local old = cjson.decode(string.sub(current, string.find(current, '|', 1, true) + 1)).key
    if redis.call('HGET', KEYS[3], old) == loc then redis.call('HDEL', KEYS[3], old) end
  end
  redis.call('HSET', KEYS[3], ARGV[4], loc)
end
redis.call('PUBLISH', ARGV[1], 'p' .. ARGV[7] .. '|' .. value)
return {'ok', tostring(version)}
`;

/** Removes every record of one run of one node, and their batch keys; publishes the forget. */
const FORGET_RUN = `
local entries = redis.call('HGETALL', KEYS[1])
for i = 2, #entries, 2 do
  local value = entries[i]
  local key = cjson.decode(string.sub(value, string.find(value, '|', 1, true) + 1)).key
  if redis.call('HGET', KEYS[3], key) == ARGV[2] .. ':' .. entries[i - 1] then
    redis.call('HDEL', KEYS[3], key)
  end
end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
local version = redis.call('INCR', KEYS[4])
redis.call('PUBLISH', ARGV[1], 'f' .. version .. '|' .. ARGV[3] .. '|' .. ARGV[4])
return tostring(version)
`;

// Heartbeats are in Redis's own time (TIME), so machines whose clocks differ agree on them.
const NOW_MS = `local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)`;

/** Takes the lease if nobody holds it, and records a heartbeat; else answers the holder. */
const TAKE_LEASE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  ${NOW_MS}
  redis.call('HSET', KEYS[2], ARGV[3], now)
  return {1, ''}
end
return {0, redis.call('GET', KEYS[1]) or ''}
`;

/** Sets the lease's expiry again and records a heartbeat, only while it holds our value. */
const REFRESH_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ${NOW_MS}
  redis.call('HSET', KEYS[2], ARGV[3], now)
  return 1
end
return 0
`;

/** Sets a key's expiry again, only while it holds `ARGV[1]`: a lease without a heartbeat. */
const EXTEND_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`;

/** Removes the lease, only while it still holds `ARGV[1]` (ours, or a dead holder's). */
const DROP_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Every node's last heartbeat, whether its lease is held, and Redis's time now. */
const READ_NODES = `
${NOW_MS}
local beats = redis.call('HGETALL', KEYS[1])
local out = {tostring(now)}
for i = 1, #beats, 2 do
  local held = redis.call('EXISTS', ARGV[1] .. beats[i])
  table.insert(out, beats[i])
  table.insert(out, beats[i + 1])
  table.insert(out, tostring(held))
end
return out
`;

/** Where a record goes and what it is: the arguments of `writeRecord`. */
export interface RecordWrite {
  runKey: string;
  runsKey: string;
  batchIndexKey: string;
  clockKey: string;
  channel: string;
  runMember: string;
  seq: number;
  batchKey: string;
  /** the version the stored record must have, 0 for none; undefined: write whatever is there */
  expectedVersion: number | undefined;
  json: string;
  /** who writes (one store of one relay; no `|`), told with the change */
  writer: string;
}

/** The Lua scripts of shared mode, as node-redis commands (EVALSHA, EVAL when not cached). */
export const RELAY_SCRIPTS = {
  writeRecord: defineScript({
    SCRIPT: WRITE_RECORD,
    NUMBER_OF_KEYS: 4,
    parseCommand(parser: CommandParser, write: RecordWrite) {
      for (const key of [write.runKey, write.runsKey, write.batchIndexKey, write.clockKey]) {
        parser.pushKey(key);
      }
      parser.push(
        write.channel,
        write.runMember,
        String(write.seq),
        write.batchKey,
        write.expectedVersion === undefined ? '' : String(write.expectedVersion),
        write.json,
        write.writer,
      );
    },
    transformReply: (reply: unknown) => reply as [string, string],
  }),
  forgetRun: defineScript({
    SCRIPT: FORGET_RUN,
    NUMBER_OF_KEYS: 4,
    parseCommand(
      parser: CommandParser,
      keys: { runKey: string; runsKey: string; batchIndexKey: string; clockKey: string },
      forget: { channel: string; runMember: string; node: string; runDir: string },
    ) {
      for (const key of [keys.runKey, keys.runsKey, keys.batchIndexKey, keys.clockKey]) {
        parser.pushKey(key);
      }
      parser.push(forget.channel, forget.runMember, forget.node, forget.runDir);
    },
    transformReply: (reply: unknown) => String(reply),
  }),
  takeLease: defineScript({
    SCRIPT: TAKE_LEASE,
    NUMBER_OF_KEYS: 2,
    parseCommand(parser: CommandParser, lease: LeaseArgs) {
      parser.pushKey(lease.leaseKey);
      parser.pushKey(lease.nodesKey);
      parser.push(lease.value, String(lease.ttlMs), lease.node);
    },
    transformReply: (reply: unknown) => {
      const [taken, holder] = reply as [unknown, unknown];
      return { taken: Number(taken) === 1, holder: String(holder ?? '') };
    },
  }),
  refreshLease: defineScript({
    SCRIPT: REFRESH_LEASE,
    NUMBER_OF_KEYS: 2,
    parseCommand(parser: CommandParser, lease: LeaseArgs) {
      parser.pushKey(lease.leaseKey);
      parser.pushKey(lease.nodesKey);
      parser.push(lease.value, String(lease.ttlMs), lease.node);
    },
    transformReply: (reply: unknown) => Number(reply) === 1,
  }),
  extendLease: defineScript({
    SCRIPT: EXTEND_LEASE,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser: CommandParser, key: string, value: string, ttlMs: number) {
      parser.pushKey(key);
      parser.push(value, String(ttlMs));
    },
    transformReply: (reply: unknown) => Number(reply) === 1,
  }),
  dropLease: defineScript({
    SCRIPT: DROP_LEASE,
    NUMBER_OF_KEYS: 1,
    parseCommand(parser: CommandParser, key: string, value: string) {
      parser.pushKey(key);
      parser.push(value);
    },
    transformReply: (reply: unknown) => Number(reply) === 1,
  }),
  readNodes: defineScript({
    SCRIPT: READ_NODES,
    NUMBER_OF_KEYS: 1,
    // the lease keys are built from node names inside the script: one Redis, not a cluster
    parseCommand(parser: CommandParser, nodesKey: string, leasePrefix: string) {
      parser.pushKey(nodesKey);
      parser.push(leasePrefix);
    },
    transformReply: (reply: unknown) => (reply as unknown[]).map(String),
  }),
};

/** The arguments of `takeLease` and `refreshLease`. */
export interface LeaseArgs {
  leaseKey: string;
  nodesKey: string;
  /** what the lease holds: our holder description, token included */
  value: string;
  ttlMs: number;
  node: string;
}
