/**
 * The refusal of a command the sandbox could not be prepared for: said by the command part when
 * one of its steps fails (sandbox-commands.ts), and by the front when the command part itself
 * could not be loaded (service.ts). Fails closed: the command does not run.
 */
export const preparationRefusal = (error: Error): string =>
  `The OS sandbox could not be prepared (${error.message}), so the command was not run. Try again; if it persists, ask the user to check the sandbox with \`mewcode doctor\`.`;

/**
 * The refusal of a command whose session ended (dispose) while the sandbox was being prepared for
 * it: the session's directory went with it, so whatever step failed, the sandbox is not at fault.
 */
export const SESSION_ENDED_REFUSAL = 'The session ended while the OS sandbox was being prepared for this command, so the command was not run.';
