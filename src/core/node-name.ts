/**
 * `RELAY_NODE`: the name of this relay's machine in shared mode. It goes into Redis keys
 * (where `:` separates parts) and into Slack messages, so it keeps to a short, safe alphabet.
 */
export const NODE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** How a node name must look, said the same way wherever one is refused. */
export const NODE_NAME_RULE =
  '1 to 63 letters, digits, dots, dashes or underscores, starting with a letter or digit (like ci-runner-3)';

/**
 * The node name to use: `RELAY_NODE` when given, else the host name when it fits the
 * alphabet. Returns the reason (naming `RELAY_NODE`) when neither gives a name.
 */
export function chooseNodeName(
  given: string | undefined,
  hostName: string,
): { ok: true; node: string } | { ok: false; problem: string } {
  if (given !== undefined) {
    return NODE_NAME.test(given)
      ? { ok: true, node: given }
      : { ok: false, problem: `RELAY_NODE must be ${NODE_NAME_RULE}` };
  }
  if (NODE_NAME.test(hostName)) return { ok: true, node: hostName };
  return {
    ok: false,
    problem: `RELAY_NODE is not set, and this machine's host name ${JSON.stringify(hostName.slice(0, 80))} cannot name it; set RELAY_NODE to ${NODE_NAME_RULE}`,
  };
}
