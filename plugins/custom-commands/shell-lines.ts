/**
 * `` !`command` `` in a command's body (at line start or after whitespace), and a fenced block
 * opened with ```` ```! ```` (run as one command), runs before the prompt is sent and its output takes the placeholder's place (not scanned again). Only the file's own
 * lines count: they are taken out before the arguments and `@path` files are placed, so text a
 * user typed or a repository file included can never add a command. The command runs as the
 * model's bash call would (kernel.callTool): preToolUse, the permission chain, the registered
 * `bash` tool, postToolUse, so the OS sandbox, the blacklist, the rules and a policy plugin's
 * hooks apply unchanged. Like Claude Code it never prompts: a command not allowed outright, or one
 * that fails, stops the whole invocation.
 */
import { runnableText, SHELL_COMMAND, shellCommandOf } from '../../config/command-files.js';
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { AgentSession } from '../../types/session.js';
import { callAsPlugin, registeredTool } from './permission-check.js';

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

/** What the bash tool's result says for a command that printed nothing. */
const NO_OUTPUT = '(no output)';

export class ShellLineError extends Error {}

export async function runShellLines(
  body: string,
  commands: readonly string[],
  kernel: KernelApi,
  session: AgentSession,
  mode: PermissionMode,
  label: string,
): Promise<string> {
  if (commands.length === 0) return body;
  const bash = registeredTool(kernel, 'bash');
  if (!bash) throw new ShellLineError(`${label}: its !\`command\` lines need the bash tool, which this build does not have`);
  const outputs: string[] = [];
  for (const [index, command] of commands.entries()) {
    const called = await callAsPlugin(kernel, { toolName: bash.name, input: { command }, callId: `custom-command-${index + 1}`, session, mode, signal: AbortSignal.timeout(120_000) });
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
