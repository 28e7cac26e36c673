import path from 'node:path';
import pino from 'pino';
import { openFileStateStore } from '../../src/store/file-state-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { stateStoreContract } from './state-store-contract.js';

const log = pino({ level: 'silent' });

stateStoreContract('the file store', async () => {
  const { dir, cleanup } = await makeTempDir('o7-file-contract-');
  const stateDir = path.join(dir, 'state');
  return {
    open: () => openFileStateStore(stateDir, { log }),
    stored: (record) => record,
    dispose: cleanup,
  };
});
