import type { RedisConnection } from '../../redis/redis-connection.js';
import { NOTICE_KINDS, type NoticeBook, type NoticeKind } from '../notice-book.js';

const fieldOf = (kind: NoticeKind, path: string) => `${kind}\n${path}`;

/**
 * The notices one node gave, kept in a Redis hash (`<kind>\n<path>` → ISO time), so neither a
 * restart nor another machine's relay repeats them. Only this node writes its hash, so the
 * copy in memory loaded at open stays right. Fields that are not ours are left alone.
 */
export async function openRedisNoticeBook(opts: {
  connection: RedisConnection;
  key: string;
  now?: () => Date;
}): Promise<NoticeBook> {
  const { connection, key } = opts;
  const now = opts.now ?? (() => new Date());
  const given = new Map<string, { kind: NoticeKind; path: string }>();
  const stored = await connection.call('loading notices', (client) => client.hGetAll(key));
  for (const field of Object.keys(stored as Record<string, unknown>)) {
    const cut = field.indexOf('\n');
    const kind = field.slice(0, cut) as NoticeKind;
    if (cut > 0 && (NOTICE_KINDS as readonly string[]).includes(kind))
      given.set(field, { kind, path: field.slice(cut + 1) });
  }
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    pending.add(work);
    const settle = () => pending.delete(work);
    work.then(settle, settle);
    return work;
  };
  return {
    has: (kind, path) => given.has(fieldOf(kind, path)),
    paths: (kind) => [...given.values()].filter((n) => n.kind === kind).map((n) => n.path),
    async add(kind, path) {
      const field = fieldOf(kind, path);
      given.set(field, { kind, path });
      await track(
        connection.call('recording a notice', (client) =>
          client.hSet(key, field, now().toISOString()),
        ),
      );
    },
    async remove(kind, drop) {
      const fields = [...given]
        .filter(([, notice]) => notice.kind === kind && drop(notice.path))
        .map(([field]) => field);
      if (fields.length === 0) return;
      for (const field of fields) given.delete(field);
      await track(connection.call('dropping notices', (client) => client.hDel(key, fields)));
    },
    async idle() {
      await Promise.allSettled([...pending]);
    },
  };
}
