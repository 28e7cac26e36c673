/**
 * All of standard input as text; on a terminal, says first how to end it. Ctrl-C (which the
 * signal handlers catch) ends the read early with what was read so far.
 */
export async function readStdin(
  hint: (line: string) => void,
  signal: AbortSignal,
): Promise<string> {
  if (process.stdin.isTTY) {
    hint("Reading the agent's message from standard input; end it with Ctrl-D.");
  }
  const chunks: Buffer[] = [];
  const stop = () => process.stdin.destroy();
  signal.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    signal.removeEventListener('abort', stop);
  }
  return Buffer.concat(chunks).toString('utf8');
}
