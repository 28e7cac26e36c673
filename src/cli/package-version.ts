import { readFileSync } from 'node:fs';
import * as z from 'zod';

const PACKAGE_NAME = 'o7-slack-relay';
const packageJson = z.object({ name: z.string(), version: z.string() });

/**
 * The version in the relay's own package.json: the nearest one above this file that names the
 * relay, which is two folders up from the sources and three from the build (`dist/src/cli`).
 */
export function packageVersion(from: string | URL = import.meta.url): string {
  for (let up = '../'; up.length <= '../../../../'.length; up += '../') {
    let text: string;
    try {
      text = readFileSync(new URL(`${up}package.json`, from), 'utf8');
    } catch {
      continue;
    }
    const parsed = packageJson.safeParse(JSON.parse(text));
    if (parsed.success && parsed.data.name === PACKAGE_NAME) return parsed.data.version;
  }
  throw new Error(`${PACKAGE_NAME}: cannot find its package.json above ${String(from)}`);
}
