/**
 * A failure inside a plugin, named so the user knows whom to blame. `message` (with what the
 * plugin threw) is for the user's own warning only; `sharedMessage` is what travels on.
 */
export class PluginError extends Error {
  readonly pluginName: string;
  readonly hookName: string;
  /**
   * Which plugin failed in which hook and the class of what it threw, never its message: the text
   * that travels on (a withheld tool result to the model and the session file, a refused model
   * request's error, a deny reason, what notification hooks are sent). An error's message may
   * quote what the plugin was handling — V8's JSON.parse error quotes the text it choked on, a
   * DLP's the very secret it was to redact.
   */
  readonly sharedMessage: string;
  constructor(pluginName: string, hookName: string, cause: unknown) {
    super(`plugin ${pluginName} failed in hook ${hookName}: ${errorMessage(cause)}`, { cause });
    this.name = 'PluginError';
    this.pluginName = pluginName;
    this.hookName = hookName;
    this.sharedMessage = `plugin ${pluginName} failed in hook ${hookName}: ${errorClass(cause)}`;
  }
}

/**
 * A tool that threw (its execute, or a check the gate runs). The call's result already tells the
 * model, and throwing is an allowed way for a tool to fail, so the user is told only under
 * --debug, where what matters is the stack of what the tool threw (PluginFailureLog).
 */
export class ToolThrew extends PluginError {
  readonly toolName: string;
  /** `owner`: who registered the tool, as the registry names it ("plugin acme", "the host"). */
  constructor(owner: string, toolName: string, cause: unknown) {
    super(owner, `tool ${toolName}`, cause);
    this.name = 'ToolThrew';
    this.toolName = toolName;
    this.message = `${owner}'s tool ${toolName} threw: ${errorMessage(cause)}`;
  }
}

/**
 * Said when what was thrown cannot describe itself: a value's own code runs to describe it (a
 * `message` getter, `toString`, a proxy's traps), and a plugin may make that throw. Describing a
 * failure must never fail, or the failure guard itself would throw, naming nobody.
 */
const UNDESCRIBED = 'a value that cannot be described';

/** What was thrown, as a class name (`TypeError`) or a kind (`a string`): nothing it says. Never throws. */
export function errorClass(error: unknown): string {
  try {
    if (error instanceof Error) {
      // The name a class gives its instances; one a plugin set to some text of its own is not said.
      let name: unknown;
      try {
        name = error.name;
      } catch {
        name = undefined;
      }
      return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? name : 'Error';
    }
    if (error === null || error === undefined) return String(error);
    return typeof error === 'object' ? 'an object (not an Error)' : `a ${typeof error}`;
  } catch {
    return UNDESCRIBED;
  }
}

/** What was thrown, as text: an Error's message, anything else converted. Never throws. */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      return typeof message === 'string' ? message : String(message);
    }
    return String(error);
  } catch {
    const kind = errorClass(error);
    return kind === UNDESCRIBED ? kind : `${kind} that cannot be described`;
  }
}
