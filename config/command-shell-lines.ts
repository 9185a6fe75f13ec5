/**
 * `` !`command` `` in a command's body (at line start or after whitespace), and a fenced block
 * opened with ```` ```! ```` (run as one command), runs before the prompt is sent and its output takes the placeholder's place (not scanned again). Only the file's own
 * lines count: they are taken out before the arguments and `@path` files are placed, so text a
 * user typed or a repository file included can never add a command. The command runs as the
 * model's bash call would (kernel.callTool): preToolUse, the permission chain, the registered
 * `bash` tool, postToolUse, so the OS sandbox, the blacklist, the rules and a policy plugin's
 * hooks apply unchanged. Like Claude Code it never prompts: a command not allowed outright, or one
 * that fails, stops the whole invocation. Shared by command files and SKILL.md bodies (both plugins
 * run `!` lines this one way). The run's cancel (`signal`) reaches the bash call as a cancelled
 * model call's does: its process group is killed (an editor's terminal: killed, then released),
 * and no later line starts.
 */
import { runnableText, SHELL_COMMAND, shellCommandOf } from './command-files.js';
import { isShellInert } from '../types/claude-plugins.js';
import type { KernelApi } from '../types/plugin.js';
import type { PermissionMode } from '../types/permissions.js';
import type { AgentSession } from '../types/session.js';
import { callAsPlugin, registeredTool } from './command-tool-calls.js';

/** Marks where a command's output goes; NUL never survives in the texts placed around it. */
const SLOT = /\u0000shell-(\d+)\u0000/g;

/** Text placed into the body (arguments, included files) with NUL removed, so it cannot forge a slot. */
export function withoutSlots(text: string): string {
  return text.replace(/\u0000/g, '');
}

/** The body with each `!` line replaced by a slot, and the commands in slot order. */
export function takeShellLines(body: string): { body: string; commands: string[] } {
  const commands: string[] = [];
  // The same text the trust scan looked at (config/command-files.ts), NUL removed with the rest.
  const marked = runnableText(body).replace(SHELL_COMMAND, (...match: (string | undefined)[]) => {
    commands.push(shellCommandOf(match));
    // A block's output takes the whole block's place; a line's keeps the space before it.
    return `${match[1] === undefined ? (match[2] ?? '') : ''}\u0000shell-${commands.length - 1}\u0000`;
  });
  return { body: marked, commands };
}

/** Each slot replaced by what `fill` gives for its index (a body whose commands are not run now). */
export function replaceSlots(body: string, fill: (index: number) => string): string {
  return body.replace(SLOT, (_match, index: string) => fill(Number(index)));
}

/** What the bash tool's result says for a command that printed nothing. */
const NO_OUTPUT = '(no output)';

export class ShellLineError extends Error {}

/**
 * The call id of a command's `n`th `!` line (from 1), named in `permissionDecided`, the hooks and a
 * launcher's request: a front end that shows the line's editor terminal (ui-acp) knows it by it.
 */
export function shellLineCallId(n: number): string {
  return `custom-command-${n}`;
}

export function isShellLineCallId(id: string): boolean {
  return /^custom-command-\d+$/.test(id);
}

export async function runShellLines(
  body: string,
  commands: readonly string[],
  kernel: KernelApi,
  session: AgentSession,
  mode: PermissionMode,
  label: string,
  signal?: AbortSignal,
): Promise<string> {
  if (commands.length === 0) return body;
  const bash = registeredTool(kernel, 'bash');
  if (!bash) throw new ShellLineError(`${label}: its !\`command\` lines need the bash tool, which this build does not have`);
  const outputs: string[] = [];
  for (const [index, command] of commands.entries()) {
    if (signal?.aborted) throw new ShellLineError(`${label}: cancelled before !\`${command}\` ran`);
    const limit = AbortSignal.timeout(120_000);
    const called = await callAsPlugin(kernel, { toolName: bash.name, input: { command }, callId: shellLineCallId(index + 1), session, mode, signal: signal ? AbortSignal.any([signal, limit]) : limit });
    if (signal?.aborted) throw new ShellLineError(`${label}: cancelled while !\`${command}\` ran (it was stopped)`);
    if (!called.allowed) {
      throw new ShellLineError(`${label}: shell command permission check failed for !\`${command}\` (${called.content}). Commands in a custom command never ask: allow it with a permission rule first.`);
    }
    // The bash tool's result opens with `exit_code: N`; like Claude Code, a non-zero exit aborts.
    const exit = /^exit_code: (\S+)\n?/.exec(called.content);
    if (called.isError || !exit || exit[1] !== '0') throw new ShellLineError(`${label}: !\`${command}\` failed: ${called.content.trim()}`);
    const output = called.content.slice(exit[0].length).replace(/\n$/, '');
    // The bash tool tells the model "(no output)"; here, as in Claude Code, nothing takes the line's place.
    outputs.push(output === NO_OUTPUT ? '' : output);
  }
  return body.replace(SLOT, (_match, index: string) => outputs[Number(index)] ?? '');
}

/** The variables a command's or a skill's text may name, as Claude Code fills them in; others stay. */
const SESSION_VARIABLES = /\$\{(CLAUDE_SESSION_ID|CLAUDE_PROJECT_DIR|CLAUDE_SKILL_DIR)\}/g;

/** `${CLAUDE_SESSION_ID}`, `${CLAUDE_PROJECT_DIR}` (and a skill's `${CLAUDE_SKILL_DIR}`) filled in; a name not given stays. */
export function expandSessionVariables(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(SESSION_VARIABLES, (match, name: string) => variables[name] ?? match);
}

/**
 * The same in a `!` line, which a shell runs: a path is pasted only when no shell would read
 * anything into it. Otherwise `${CLAUDE_PROJECT_DIR}` stays for the shell to expand from the bash
 * tool's environment, and a line naming a skill folder of that kind is refused (ShellLineError),
 * so a folder named `x$(…)` or `it's` is a path, never code.
 */
export function expandInCommand(command: string, variables: Readonly<Record<string, string>>, label = 'the command'): string {
  const safe: Record<string, string> = {};
  for (const [name, value] of Object.entries(variables)) if (name === 'CLAUDE_SESSION_ID' || isShellInert(value)) safe[name] = value;
  if (variables.CLAUDE_SKILL_DIR !== undefined && safe.CLAUDE_SKILL_DIR === undefined && command.includes('${CLAUDE_SKILL_DIR}')) {
    throw new ShellLineError(`${label}: !\`${command}\` names \${CLAUDE_SKILL_DIR}, whose path holds characters a shell would read (quotes, $, spaces…); not run`);
  }
  return expandSessionVariables(command, safe);
}
