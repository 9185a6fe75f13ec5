/**
 * A slash command's `!` lines in the editor. With the editor's `terminal` capability a `!` line
 * runs in an editor terminal, as the model's bash calls do (the same bash tool, the same
 * launcher), so it is shown as a bash call is: a `tool_call` (kind `execute`, the line as its
 * title) holding the terminal, ended `completed` or `failed` when the command is done. A line has
 * no tool events of its own (it is the command's call, not the model's), so the call is opened
 * when its terminal is and closed when its command returns. Ids are the session's own
 * (`command-line-N`): every run of a command numbers its lines from 1.
 */
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { isShellLineCallId } from '../../config/command-shell-lines.js';

interface Shown {
  id: string;
  content: ToolCallContent[];
}

export class CommandLines {
  private running: { name: string; shown: Shown[] } | undefined;
  private count = 0;

  /** A command named `name` starts: its lines' terminals are shown until end(). */
  begin(name: string): void {
    this.running = { name, shown: [] };
  }

  /** The update announcing a terminal opened for one of the running command's `!` lines; undefined for any other. */
  show(toolCallId: string, terminalId: string, command: string | undefined): SessionUpdate | undefined {
    const running = this.running;
    if (!running || !isShellLineCallId(toolCallId)) return undefined;
    const shown: Shown = { id: `command-line-${++this.count}`, content: [{ type: 'terminal', terminalId }] };
    running.shown.push(shown);
    return {
      sessionUpdate: 'tool_call',
      toolCallId: shown.id,
      title: command !== undefined ? `!\`${oneLine(command)}\` (/${running.name})` : `a shell line of /${running.name}`,
      kind: 'execute',
      status: 'in_progress',
      content: shown.content,
      ...(command !== undefined ? { rawInput: { command } } : {}),
    };
  }

  /**
   * The command returned (`failed`: it was cancelled, threw or reported an error, which a failing
   * `!` line does and stops there): each shown line ends, the last one `failed` then, the terminal
   * kept in its content.
   */
  end(failed: boolean): SessionUpdate[] {
    const shown = this.running?.shown ?? [];
    this.running = undefined;
    return shown.map((line, index) => ({
      sessionUpdate: 'tool_call_update',
      toolCallId: line.id,
      status: failed && index === shown.length - 1 ? 'failed' : 'completed',
      content: line.content,
    }));
  }
}

function oneLine(command: string): string {
  const line = command.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
