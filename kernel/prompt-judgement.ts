/**
 * A line the user typed that calls their own command or a skill (`/deploy prod`) passes
 * userPromptSubmit as typed, BEFORE the command runs: a command file's `!` lines and a skill's run
 * shell commands the user wrote, which a hook that blocks the prompt must be able to stop (Claude
 * Code's UserPromptSubmit). The prompt the command expands to then runs without passing the hook
 * again; the context the judgement added goes with it. The proof of that judgement is an opaque
 * object only the kernel issues, good for one run of that session and that prompt: a plugin
 * cannot make a prompt skip userPromptSubmit with one of its own.
 */
import type { BlockDecision, KernelHooks, PromptSubmitContext } from '../types/hooks.js';
import type { PromptJudgement } from '../types/session.js';

interface Issued {
  readonly sessionId: string;
  readonly agentId: string;
  readonly additionalContext: readonly string[];
  /** The prompt the command expanded to: the only one the judgement is good for. */
  prompt?: string;
  used: boolean;
}

const issued = new WeakMap<PromptJudgement, Issued>();

/** The line as the user typed it, from a command call (its arguments trimmed, as every front end reads them). */
export function typedLine(name: string, args: string): string {
  return args === '' ? `/${name}` : `/${name} ${args}`;
}

export async function judgeTypedLine(hooks: KernelHooks, context: PromptSubmitContext): Promise<{ block: BlockDecision } | { judgement: PromptJudgement }> {
  const submission = await hooks.userPromptSubmit.promise({ additionalContext: [] }, context);
  if (submission?.block) return { block: submission.block };
  const judgement: PromptJudgement = Object.freeze({ kind: 'prompt-judgement' as const });
  issued.set(judgement, { sessionId: context.sessionId, agentId: context.agentId, additionalContext: [...(submission?.additionalContext ?? [])], used: false });
  return { judgement };
}

/** The command expanded to `prompt`: the judgement is good for that prompt only. */
export function bindJudgement(judgement: PromptJudgement, prompt: string): void {
  const record = issued.get(judgement);
  if (record && record.prompt === undefined) record.prompt = prompt;
}

/**
 * The context the judgement added, when it is the kernel's, for this session and this prompt,
 * and not used yet (it is then used up); otherwise undefined: the prompt passes userPromptSubmit.
 */
export function takeJudgement(judgement: PromptJudgement | undefined, session: { sessionId: string; agentId: string }, prompt: string): readonly string[] | undefined {
  const record = judgement === undefined ? undefined : issued.get(judgement);
  if (!record || record.used || record.sessionId !== session.sessionId || record.agentId !== session.agentId || record.prompt !== prompt) return undefined;
  record.used = true;
  return record.additionalContext;
}
