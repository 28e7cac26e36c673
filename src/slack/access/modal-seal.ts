import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode } from '../../fs/errno.js';
import { writeFileAtomic } from '../../fs/write-file-atomic.js';

/** What a person is told under a form whose metadata the relay did not seal, or no longer knows. */
export const UNKNOWN_FORM =
  'This form is not one the relay can check any more; close it and open it again from the message.';

/** What a seal adds to `private_metadata`: 22 characters of MAC and a dot. */
export const SEAL_OVERHEAD = 23;

/** The file in `RELAY_STATE_DIR` holding the key, so forms stay valid across restarts. */
const KEY_FILE = 'modal-seal.key';

/**
 * Seals the `private_metadata` of the relay's forms with an HMAC, so that a submission can only
 * name the batch and question the relay opened the form for: Slack sends the metadata back as
 * it was given, and anyone holding the signing secret or app token could send other metadata.
 */
export interface ModalSeal {
  /** The view with its `private_metadata` sealed. */
  seal<V extends { private_metadata?: string }>(view: V): V;
  /** The metadata inside a sealed one, or `undefined` when it was not sealed with this key. */
  open(sealed: string | undefined): string | undefined;
}

/** A seal with `key` (32 random bytes, see `loadModalSealKey`). */
export function createModalSeal(key: Uint8Array): ModalSeal {
  const mac = (text: string) =>
    createHmac('sha256', key).update(text).digest('base64url').slice(0, 22);
  return {
    seal(view) {
      if (view.private_metadata === undefined) return view;
      return {
        ...view,
        private_metadata: `${mac(view.private_metadata)}.${view.private_metadata}`,
      };
    },
    open(sealed) {
      if (sealed === undefined || sealed.length < SEAL_OVERHEAD || sealed[22] !== '.')
        return undefined;
      const text = sealed.slice(SEAL_OVERHEAD);
      const given = Buffer.from(sealed.slice(0, 22));
      const expected = Buffer.from(mac(text));
      return given.length === expected.length && timingSafeEqual(given, expected)
        ? text
        : undefined;
    },
  };
}

/** The seal's key from the state folder, made (and stored, readable by this user only) if new. */
export async function loadModalSealKey(stateDir: string): Promise<Buffer> {
  const file = path.join(stateDir, KEY_FILE);
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64url');
    if (key.length === 32) return key;
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await writeFileAtomic(file, `${key.toString('base64url')}\n`);
  await chmod(file, 0o600);
  return key;
}
