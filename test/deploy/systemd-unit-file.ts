import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../support/project-paths.js';

/** The example systemd unit in the repository. */
export const UNIT_PATH = path.join(REPO, 'deploy', 'o7-slack-relay.service');

/** The `Key=value` settings of one section of a unit file, each key with all its values. */
export function sectionOf(text: string, name: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let inside = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inside = line === `[${name}]`;
    else if (inside && line !== '' && !line.startsWith('#')) {
      const at = line.indexOf('=');
      const key = line.slice(0, at);
      settings.set(key, [...(settings.get(key) ?? []), line.slice(at + 1)]);
    }
  }
  return settings;
}

/** The unit's text and its [Service] section, with `one(key)` for a key set exactly once. */
export function readServiceSection(): {
  text: string;
  service: Map<string, string[]>;
  one: (key: string) => string;
} {
  const text = readFileSync(UNIT_PATH, 'utf8');
  const service = sectionOf(text, 'Service');
  const one = (key: string) => {
    const values = service.get(key) ?? [];
    if (values.length !== 1)
      throw new Error(`the unit sets ${key}= ${values.length} times, not once`);
    return values[0] as string;
  };
  return { text, service, one };
}

/**
 * An Exec line's words with `${NAME}` filled in from `env`, as systemd expands a variable that
 * stands for a whole word or a part of one (no quoting: the unit's lines use none).
 */
export function execWords(line: string, env: Record<string, string>): string[] {
  return line
    .split(/\s+/)
    .filter(Boolean)
    .map((word) =>
      word.replace(/\$\{(\w+)\}/g, (_, name: string) => {
        const value = env[name];
        if (value === undefined) throw new Error(`the unit uses \${${name}}, which is not set`);
        return value;
      }),
    );
}
