import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';

import { REPO } from '../support/project-paths.js';

/** One build stage of the Dockerfile, as the tests compare it. */
export interface Stage {
  name: string | null;
  /** the image it starts from, build arguments filled in with their defaults */
  image: string;
  /** each instruction: its keyword and its arguments as written */
  instructions: { keyword: string; args: string }[];
  env: Record<string, string>;
  /** the shell commands of its RUN instructions, each `&&` part on its own */
  commands: string[];
  entrypoint: string[];
  cmd: string[];
  /** the user of the last USER instruction; undefined when it runs as root */
  user: string | undefined;
  copies: { from: string | undefined; sources: string[]; target: string }[];
}

/** The project's Dockerfile, read into its stages with dockerfile-ast. */
export function readDockerfile(): { text: string; stages: Stage[] } {
  const text = readFileSync(path.join(REPO, 'Dockerfile'), 'utf8');
  const dockerfile = DockerfileParser.parse(text);
  const defaults = new Map(
    dockerfile
      .getInitialARGs()
      .flatMap((arg) => arg.getProperties())
      .map((property) => [property.getName(), property.getValue() ?? ''] as const),
  );
  const stages = dockerfile.getFROMs().map((from): Stage => {
    const stage = dockerfile.getContainingImage(from.getRange().start);
    if (!stage) throw new Error(`no stage at line ${from.getRange().start.line + 1}`);
    const instructions = stage.getInstructions().map((instruction) => ({
      keyword: instruction.getKeyword(),
      args: instruction.getArgumentsContent() ?? '',
    }));
    const json = (list: { getJSONStrings(): { getJSONValue(): string }[] }[]) =>
      list
        .at(-1)
        ?.getJSONStrings()
        .map((s) => s.getJSONValue()) ?? [];
    return {
      name: from.getBuildStage(),
      image: (from.getImage() ?? '').replace(/\$\{(\w+)\}/g, (_, name) => defaults.get(name) ?? ''),
      instructions,
      env: Object.fromEntries(
        stage
          .getENVs()
          .flatMap((env) => env.getProperties())
          .map((property) => [property.getName(), property.getValue() ?? '']),
      ),
      commands: instructions
        .filter((i) => i.keyword === 'RUN')
        .flatMap((i) => i.args.split('&&').map((part) => part.trim())),
      entrypoint: json(stage.getENTRYPOINTs()),
      cmd: json(stage.getCMDs()),
      user: instructions.findLast((i) => i.keyword === 'USER')?.args,
      copies: stage.getCOPYs().map((copy) => {
        const args = copy.getArguments().map((a) => a.getValue());
        return {
          from: copy.getFromFlag()?.getValue() ?? undefined,
          sources: args.slice(0, -1),
          target: args.at(-1) ?? '',
        };
      }),
    };
  });
  return { text, stages };
}
