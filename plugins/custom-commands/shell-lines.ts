/**
 * `` !`command` `` in a command's body (at line start or after whitespace) runs before the prompt
 * is sent and its output takes the placeholder's place (not scanned again). The command runs as
 * the model's bash call would: through the permission chain and the registered `bash` tool, so
 * the OS sandbox, the blacklist and the rules apply unchanged. Like Claude Code it never prompts:
 * a command the chain does not allow outright, or one that fails, stops the whole invocation.
 */
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { AgentSession } from '../../types/session.js';
import { askChain, registeredTool } from './permission-check.js';

const SHELL_LINE = /(^|[ \t])!`([^`\n]+)`/gm;

export function hasShellLines(body: string): boolean {
  // A fresh expression: a shared global one keeps lastIndex, and matchAll would start from it.
  return new RegExp(SHELL_LINE.source, 'm').test(body);
}

export class ShellLineError extends Error {}

export async function runShellLines(body: string, kernel: KernelApi, session: AgentSession, mode: PermissionMode, label: string): Promise<string> {
  const matches = [...body.matchAll(SHELL_LINE)];
  if (matches.length === 0) return body;
  const bash = registeredTool(kernel, 'bash');
  if (!bash) throw new ShellLineError(`${label}: its !\`command\` lines need the bash tool, which this build does not have`);
  const outputs: string[] = [];
  let n = 0;
  for (const match of matches) {
    const command = match[2]!.trim();
    const input = { command };
    const verdict = await askChain(kernel, session, mode, bash, input);
    if (verdict.decision !== 'allow') {
      throw new ShellLineError(
        `${label}: shell command permission check failed for !\`${command}\` (${verdict.layer}: ${verdict.reason ?? verdict.decision}). ` +
          'Commands in a custom command never ask: allow it with a permission rule first.',
      );
    }
    const result = await bash.execute(input, {
      signal: AbortSignal.timeout(120_000),
      projectRoot: kernel.projectRoot,
      homeDir: kernel.homeDir,
      sessionId: session.sessionId,
      agentId: session.agentId,
      toolCallId: `custom-command-${++n}`,
      session,
    });
    // The bash tool's result opens with `exit_code: N`; like Claude Code, a non-zero exit aborts.
    const exit = /^exit_code: (\S+)\n?/.exec(result.content);
    if (result.isError || !exit || exit[1] !== '0') throw new ShellLineError(`${label}: !\`${command}\` failed: ${result.content.trim()}`);
    outputs.push(result.content.slice(exit[0].length).replace(/\n$/, ''));
  }
  let index = 0;
  return body.replace(SHELL_LINE, (_match, lead: string) => `${lead}${outputs[index++]}`);
}
