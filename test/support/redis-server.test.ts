import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { needsRedis, startRedisServer } from './redis-server.js';

/** Sends inline commands and resolves with the raw replies once `until` is in them. */
function talk(port: number, commands: string[], until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(10_000, () => {
      socket.destroy();
      reject(new Error(`no ${JSON.stringify(until)} in ${JSON.stringify(reply)}`));
    });
    socket.once('error', reject);
    socket.once('connect', () => socket.write(commands.map((c) => `${c}\r\n`).join('')));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes(until)) {
        socket.destroy();
        resolve(reply);
      }
    });
  });
}

describe('startRedisServer', () => {
  it(
    'serves on loopback, and with AOF keeps its data across a restart on the same port',
    needsRedis,
    async () => {
      const server = await startRedisServer({ aof: true });
      try {
        assert.match(server.url, /^redis:\/\/127\.0\.0\.1:\d+$/);
        await talk(server.port, ['SET kept yes'], '+OK');
        await server.stop();
        assert.equal(server.running, false);
        await server.restart();
        assert.match(await talk(server.port, ['GET kept'], 'yes'), /\$3\r\nyes/);
        assert.ok(existsSync(path.join(server.dir, 'appendonlydir')));
      } finally {
        await server.dispose();
      }
      assert.equal(existsSync(server.dir), false);
    },
  );

  it(
    'without AOF writes no files, and asks for the password it was given',
    needsRedis,
    async () => {
      const server = await startRedisServer({
        password: 'door',
        users: [{ name: 'relay', password: 'key' }],
      });
      try {
        assert.match(await talk(server.port, ['PING'], 'NOAUTH'), /NOAUTH/);
        assert.match(await talk(server.port, ['AUTH relay key', 'PING'], '+PONG'), /\+OK/);
        await server.restart();
        assert.match(await talk(server.port, ['AUTH door', 'DBSIZE'], ':'), /:0/);
        assert.deepEqual(await readdir(server.dir), ['redis.conf']);
      } finally {
        await server.dispose();
      }
    },
  );
});
