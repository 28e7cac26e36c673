/**
 * Why a batch cannot be handed over when no relay holds the state folder, and how to fix it:
 * said alike by every caller that asks through the relay (`ask`, the MCP tools). `who` names
 * the caller ("ask"), `retry` what to do once the relay runs ("run ask again").
 */
export function noRelayMessage(stateDir: string, who: string, retry: string): string {
  return [
    `No relay is running for ${stateDir}.`,
    `Start it with \`npm start\` (or \`o7-slack-relay start\`) using the same RELAY_STATE_DIR, then ${retry}.`,
    `${who} never connects to Slack itself, because a second Socket Mode connection with the same app token would get half the clicks.`,
  ].join('\n');
}
