/**
 * One command file run as a slash command: its body expanded (arguments, `@path`, `!` lines) into
 * the prompt. index.ts lists the command; this module is imported at the first run of one.
 */
import type { CommandResult } from '../../types/commands.js';
import type { KernelApi } from '../../types/plugin.js';
import type { AgentSession } from '../../types/session.js';
import type { PermissionMode } from '../../types/permissions.js';
import { chooseModel } from '../../sdk/model-choice.js';
import { TOKENS } from '../../types/tokens.js';
import { findRole, unknownAgentMessage, type SubagentRunner } from '../../types/subagents.js';
import { forkAgentId, wholeToolEntries } from '../../sdk/tool-denials.js';
import type { ComponentHookScope } from '../../types/component-hooks.js';
import { placeArguments, substituteArguments } from '../../config/command-arguments.js';
import type { CommandFile } from './command-file.js';
import { includeFiles } from './file-includes.js';
import type { TurnGrants } from './turn-grant.js';
import { callAsPlugin, registeredTool } from '../../config/command-tool-calls.js';
import { expandInCommand, expandSessionVariables, runShellLines, ShellLineError, takeShellLines, withoutSlots } from '../../config/command-shell-lines.js';

export async function runCommand(kernel: KernelApi, grants: TurnGrants, file: CommandFile, session: AgentSession, args: string, mode: PermissionMode, signal?: AbortSignal): Promise<CommandResult> {
  const label = `/${file.name} (${file.file})`;
  // `allowed-tools` pre-approves for the command's own `!` lines and then for its turn; a
  // command that stops without a prompt (a refusal, a failed line, a throw) takes it back.
  const variables = { CLAUDE_SESSION_ID: session.sessionId, CLAUDE_PROJECT_DIR: kernel.projectRoot };
  // Its own hooks hold for its turn, from its `!` lines on, as its allowed-tools do (a fork's run in its sub-agent: runForked).
  const endHooks = file.fork ? undefined : await startHooks({ sessionId: session.sessionId, agentId: session.agentId });
  grants.begin(
    session,
    file.allowedTools.map((entry) => expandSessionVariables(entry, variables)),
    label,
    { entries: file.disallowedTools.map((entry) => expandSessionVariables(entry, variables)), label, base: file.scope },
    endHooks,
  );
  let result: CommandResult | undefined;
  try {
    result = await runFile(session, args, mode, variables);
    return result;
  } finally {
    if (result?.prompt === undefined) grants.drop(session);
  }

  /** The file's own hooks for `scope`'s events (none when it has none that may run: command-file.ts). */
  async function startHooks(scope: ComponentHookScope): Promise<(() => void) | undefined> {
    if (file.hooksText === undefined || !kernel.container.isBound(TOKENS.ComponentHooks)) return undefined;
    return kernel.container.get(TOKENS.ComponentHooks).activate({ file: file.file, text: file.hooksText, scope: file.scope, ...(file.variables ? { variables: file.variables } : {}) }, scope);
  }

  async function runFile(session: AgentSession, args: string, mode: PermissionMode, variables: Readonly<Record<string, string>>): Promise<CommandResult> {
    // The `!` lines are the file's own text, taken before anything is filled in: a value placed
    // in the prose (the project's path, whatever its folder is named) can never add a command.
    const taken = takeShellLines(file.body);
    const shell = { body: expandSessionVariables(taken.body, variables), commands: taken.commands.map((command) => expandInCommand(command, variables)) };
    // Text from a repository is harmless; running its commands is what trust is for. Judged on
    // the commands that would run, not on a second reading of the file.
    if (shell.commands.length > 0 && !file.mayRunShellLines) {
      return {
        isError: true,
        output: `${label} runs shell commands (!\`…\` lines or \`\`\`! blocks), which need this project trusted with the file as it is now (the trust notice lists it): trust the workspace (mewcode --trust-project, or answer the trust question of an interactive session) to use it.`,
      };
    }
    // The file's own `!` lines first: arguments and included files are placed after, never run.
    // A command line may use the arguments too (`!\`git log $0\``): the user's own words, run only
    // where the file put them, and judged by the permission chain like any command.
    const typed = withoutSlots(args);
    const commands = shell.commands.map((command) => placeArguments(command, typed, file.argumentNames));
    let text = substituteArguments(shell.body, typed, commands.some((c) => c.placed), file.argumentNames);
    const read = registeredTool(kernel, 'read_file');
    const included = await includeFiles(text, {
      projectRoot: kernel.projectRoot,
      homeDir: kernel.homeDir,
      ...(kernel.container.isBound(TOKENS.SearchPolicy) ? { hidden: kernel.container.get(TOKENS.SearchPolicy).hiddenFiles('read_file') } : {}),
      readThrough: async (resolved, reading) => {
        // No read_file tool, no layer to ask: nothing is read.
        if (!read) return { ok: false, reason: 'this build has no read_file tool' };
        // Judged as a read_file call (only an outright allow reads), read our own way, and what
        // was read passes postToolUse like the tool's output would.
        const through = await callAsPlugin(kernel, {
          toolName: read.name,
          input: { file_path: resolved },
          callId: 'custom-command-include',
          session,
          mode,
          ...(signal ? { signal } : {}),
          perform: async () => {
            const got = await reading();
            return got.ok ? { content: got.text } : { content: got.reason, isError: true };
          },
        });
        return through.allowed && !through.isError ? { ok: true, text: through.content } : { ok: false, reason: through.content };
      },
    });
    for (const note of included.refused) kernel.warn(`${label}: ${note.slice(1, -1)}`);
    text = included.text;
    try {
      text = await runShellLines(text, commands.map((c) => c.text), kernel, session, mode, label, signal);
    } catch (error) {
      if (error instanceof ShellLineError) return { isError: true, output: error.message };
      throw error;
    }
    // An empty prompt would be a request with no message: say so instead (nothing was typed either).
    // Cancelled while the file was read: nothing is sent, no sub-agent starts.
    if (signal?.aborted) return { isError: true, output: `${label}: cancelled` };
    if (text.trim() === '') return { isError: true, output: `${label} has no text to send: the file's body is empty; write the prompt below its frontmatter, or pass arguments` };
    if (file.fork) return runForked(text.trim(), session, mode);
    let restore: (() => void) | undefined;
    // Claude Code's aliases (`haiku`…) and configured provider names are resolved as for a sub-agent.
    const previous = session.currentProvider();
    const choice = file.model ? chooseModel(file.model, (kernel.container.isBound(TOKENS.ProviderRegistry) ? kernel.container.get(TOKENS.ProviderRegistry).configured() : []), { provider: previous.id, model: previous.model }, 'the command') : undefined;
    if (choice?.notice) kernel.notify('notice', `${label}: ${choice.notice}`);
    const selection = choice?.selection;
    if (selection && !(selection.provider === previous.id && (selection.model ?? previous.model) === previous.model)) {
      try {
        session.switchModel(selection);
      } catch (error) {
        return { isError: true, output: `${label}: model "${file.model}" cannot be used: ${(error as Error).message}` };
      }
      restore = () => {
        try {
          session.switchModel({ provider: previous.id, model: previous.model });
        } catch (error) {
          kernel.warn(`${label}: the model could not be switched back to ${previous.model}: ${(error as Error).message}`);
        }
      };
    }
    const prompt = text.trim();
    grants.ready(session, prompt, restore);
    return { prompt };
  }

  /**
   * `context: fork`: the prompt runs in a sub-agent of the `agent:` type (its tools, model and
   * prompt; the file's `model` wins) and its final text is the output. An `agent:` naming no type,
   * or a build without sub-agents, is refused: never run inline with every tool instead.
   */
  async function runForked(prompt: string, session: AgentSession, mode: PermissionMode): Promise<CommandResult> {
    const runner = kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner) : undefined;
    if (!runner) return { isError: true, output: `${label} runs in a sub-agent (context: fork), but this build has no sub-agent runner; not run` };
    const roles = runner.roles();
    const role = file.fork?.agent === undefined ? undefined : findRole(roles, file.fork.agent)?.name;
    if (file.fork?.agent !== undefined && role === undefined) return { isError: true, output: `/${file.name}: ${unknownAgentMessage(file.fork.agentAt, file.fork.agent, roles)}` };
    // `disallowed-tools`: a whole tool is not given to the sub-agent; a narrower entry (`Bash(rm:*)`)
    // is denied to it by the turn's deny list, which covers the sub-agents of the agent that ran the command.
    const denied = wholeToolEntries(file.disallowedTools);
    // Its hooks see the sub-agent's events (its Stop hooks as SubagentStop) while it runs.
    const agentId = forkAgentId();
    const endHooks = await startHooks({ sessionId: session.sessionId, agentId, asSubagent: true });
    let result: Awaited<ReturnType<SubagentRunner['run']>>;
    try {
      result = await runner.run({
        parent: session,
        prompt,
        description: `command /${file.name}`,
        mode,
        agentId,
        ...(role ? { role } : {}),
        ...(file.model ? { model: file.model } : {}),
        ...(denied.length > 0 ? { disallowedTools: denied } : {}),
        ...(signal ? { signal } : {}),
      });
    } finally {
      endHooks?.();
    }
    return { output: result.text || `(${label} ended without a final message: ${result.endReason})`, ...(result.isError ? { isError: true } : {}) };
  }
}
