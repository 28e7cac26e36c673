// "follow up", "follow-up", "followup", "follows up", "followed up", "a follow-up question"
const FOLLOW_UP = /\bfollow(?:s|ed|ing)?[\s-]*ups?\b/i;
// "plain-text", "free-text", "plain text", "a text answer", "absolute path(s)"
const TEXT_WANTED = /\b(?:texts?|paths?)\b/i;

/**
 * Whether an option's description announces the contract's free-text escape hatch ("the
 * orchestrator will follow up with a plain-text question…"): it must speak of a follow-up
 * and of text or a path. Both are needed, so "we can follow up later" or "reads plain text
 * files" alone do not count. A false positive costs the user an optional text box; a false
 * negative loses the text the agent needs, so the test leans generous.
 */
export function asksForFollowUpText(description: string): boolean {
  return FOLLOW_UP.test(description) && TEXT_WANTED.test(description);
}
