/**
 * End-to-end harness for adversarial bash commands through the BUILT CLI: the scripted model
 * issues every attempt as a parallel `bash` call in one turn, the CLI runs headless (`-p`, where
 * an "ask" is a refusal), and each attempt is judged by what reached the model (its tool result)
 * and by its effect on the disk, which the caller checks. Commands really run when they are let
 * through, so every target they name is inside the scenario's temporary directories.
 */
import { scenario, type Scenario } from '../cli/helpers.js';

export interface AttemptResult {
  command: string;
  /** The tool result the model saw. */
  content: string;
  /** The permission chain refused it (denied, or an ask nobody could answer). */
  refused: boolean;
}

export interface CliRun {
  results: AttemptResult[];
  /** Every request body the model server received, as JSON text (to look for leaked secrets). */
  requestText: string;
  stderr: string;
}

/** Tool results of a refused call start like this (the kernel's permission messages). */
const REFUSED = /Permission denied by |needs approval/;

/**
 * Runs `commands` as parallel bash calls in one model turn. `prepare` sets up the project (`cwd`)
 * and HOME before the CLI starts; `args` are added to `-p … --output-format json`.
 */
export async function runBashAttempts(
  templates: readonly string[],
  options: {
    args: readonly string[];
    prepare(s: Scenario): void;
    /** Turns a template into the command sent (e.g. to put the scenario's HOME into it). */
    rewrite?(template: string, s: Scenario): string;
    inspect?(s: Scenario): void;
  },
): Promise<CliRun> {
  return scenario([], async (s) => {
    const commands = templates.map((t) => (options.rewrite ? options.rewrite(t, s) : t));
    const calls = commands.map((command, i) => ({ id: `call_${i}`, name: 'bash', input: { command } }));
    s.server.push({ toolCalls: calls }, { text: 'done' });
    options.prepare(s);
    const r = await s.run(['-p', 'run these', '--output-format', 'json', ...options.args]);
    if (s.requests.length < 2) throw new Error(`the CLI did not send the tool results back (exit ${r.code}):\n${r.stderr}\n${r.stdout}`);
    const blocks: any[] = s.requests[1]!.body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result');
    const results = commands.map((command, i) => {
      const block = blocks.find((b) => b.tool_use_id === `call_${i}`);
      const content = block === undefined ? '(no result)' : typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text ?? '').join('');
      return { command, content, refused: REFUSED.test(content) };
    });
    options.inspect?.(s);
    return { results, requestText: s.requests.map((req) => req.rawBody).join('\n'), stderr: r.stderr };
  });
}
