import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseQaFileName } from '../../../src/core/protocol/run-folder.js';
import { REPO } from '../../support/project-paths.js';

/** The repository root, so fixture paths in messages are the ones a user would type. */
export const REPO_ROOT = `${REPO}/`;

/** One case folder of a fixture corpus: its protocol files and the expected error text. */
export interface FixtureCase {
  name: string;
  /** repo-relative path of the question file, when the case has one */
  questionPath?: string;
  /** repo-relative path of the answer file, when the case has one */
  answerPath?: string;
  /** `expected.txt`, for invalid cases */
  expected?: string;
}

/** Reads `<corpus>/<kind>/<case>/` folders, sorted by name. */
export function readCases(corpus: string, kind: 'valid' | 'invalid'): FixtureCase[] {
  const base = join(corpus, kind);
  return readdirSync(join(REPO_ROOT, base))
    .sort()
    .map((name) => {
      const folder = `${base}/${name}`;
      const found: FixtureCase = { name };
      for (const file of readdirSync(join(REPO_ROOT, folder))) {
        const parsed = parseQaFileName(file);
        if (parsed?.kind === 'question') found.questionPath = `${folder}/${file}`;
        if (parsed?.kind === 'answer') found.answerPath = `${folder}/${file}`;
        if (file === 'expected.txt') found.expected = readText(`${folder}/${file}`);
      }
      return found;
    });
}

/** A fixture file's text, by repo-relative path. */
export const readText = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');
