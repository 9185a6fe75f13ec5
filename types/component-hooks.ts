/**
 * The `hooks:` of a skill's, a command file's or a sub-agent definition's frontmatter (Claude
 * Code's key): settings-shaped hooks that run only while that component is active. The hooks
 * plugin binds TOKENS.ComponentHooks; the skills, custom-commands and subagents plugins read and
 * trust the file themselves and hand its text over, so none of them knows the hook code.
 */

/** One definition file whose frontmatter may hold `hooks:`. */
export interface ComponentHookFile {
  /** The file (named in warnings, the hook log and notices). */
  file: string;
  /** Its text as read now: the frontmatter's `hooks` is taken from it. */
  text: string;
  /**
   * `project`: a repository's file, whose commands run as a project's settings hooks do (in the OS
   * sandbox when one is active). The caller runs it only once workspace trust approved `text`.
   */
  scope: 'user' | 'project';
  /** A Claude Code plugin's file: `${CLAUDE_PLUGIN_ROOT}` and the like for its commands' environment. */
  variables?: Readonly<Record<string, string>>;
}

/** Whose events the hooks see: this agent's, and those of the sub-agents it starts meanwhile. */
export interface ComponentHookScope {
  sessionId: string;
  agentId: string;
  /** The component runs as a sub-agent (a fork skill, an agent definition): its `Stop` hooks are `SubagentStop` ones, as in Claude Code. */
  asSubagent?: boolean;
}

export interface ComponentHooks {
  /** Each problem of the file's `hooks`, checked as a settings file's are (`<file>:<line>:<col>: …` naming the key); empty when none. */
  check(file: ComponentHookFile): Promise<string[]>;
  /** The file's valid hooks run for `scope`'s events until the returned function is called. */
  activate(file: ComponentHookFile, scope: ComponentHookScope): Promise<() => void>;
}
