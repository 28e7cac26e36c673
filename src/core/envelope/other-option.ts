/**
 * The option the relay adds last to every envelope question, since a choose-one answer must
 * be one of the options: picking it means "none of these", and the user's own words travel
 * in the answer file's `followUpText`.
 */
export const OTHER_OPTION = 'Other…';

/** The description shown for {@link OTHER_OPTION}, beside the agent's own descriptions. */
export const OTHER_DESCRIPTION = 'None of these: type your own answer.';
