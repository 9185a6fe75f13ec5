/**
 * Claude Code flags MewCode does not take, each with the nearest MewCode way, so a script written
 * for `claude` fails with something to do instead of a bare "Unknown option". The reasons are kept
 * short; README's "Coming from Claude Code" section lists the same differences.
 */
const NEAREST: Readonly<Record<string, string>> = {
  '--system-prompt': 'MewCode keeps its own base prompt (its cached prefix); add to it with --append-system-prompt <text>',
  '--system-prompt-file': 'MewCode keeps its own base prompt; add to it with --append-system-prompt "$(cat file)"',
  '--append-system-prompt-file': 'use --append-system-prompt "$(cat file)"',
  '--input-format': 'give the prompt as an argument or on standard input (text); stream-json input is not read',
  '--session-id': 'a new session gets its own id (`mewcode sessions` lists them); continue one with --resume <id> or --continue',
  '--agents': 'define sub-agents as Markdown files in ~/.claude/agents or .claude/agents',
  '--setting-sources': 'MewCode reads your settings files, the project\'s and the local ones; leave a project\'s out by not trusting it',
  '--fallback-model': 'there is no fallback model: the request is retried with the same model; choose one with --model',
  '--settings': 'put settings in ~/.mewcode/settings.yaml (or ~/.claude/settings.json), .mewcode/settings.yaml or .claude/settings.json',
  '--permission-prompt-tool': 'a -p run answers permission questions from the rules and --permission-mode; use --allowedTools / --disallowedTools',
  '--include-partial-messages': 'stream-json always carries every event, text deltas included',
  '--replay-user-messages': 'stream-json input is not read',
  '--fork-session': 'use --resume <id> to continue a session',
  '--ide': 'MewCode connects to an editor through ACP (`mewcode acp`)',
  '--betas': 'there is no equivalent',
  '--tools': 'every tool is offered; take some away with --disallowedTools <rules...>',
  '--max-budget-usd': 'there is no budget limit; bound a run with --max-turns',
};

/** The message for an unknown option that is one of Claude Code's, or undefined. */
export function claudeOnlyFlagMessage(parseError: unknown): string | undefined {
  const match = /Unknown option '(--[A-Za-z][\w-]*)'/.exec((parseError as Error)?.message ?? '');
  const flag = match?.[1];
  if (flag === undefined || !Object.hasOwn(NEAREST, flag)) return undefined;
  return `${flag} is a Claude Code option MewCode does not have: ${NEAREST[flag]}. Run mewcode --help for the options.`;
}
