/**
 * `--allowedTools` / `--disallowedTools` as Claude Code takes them: each flag may be followed by
 * several values in a row (`--disallowedTools "Bash(git push:*)" Edit Write`), up to the next
 * flag, and each value may hold several rules separated by commas or spaces outside parentheses.
 * `--allowed-tools` and `--disallowed-tools` are the same flags.
 *
 * Claude Code takes every word up to the next flag as a rule. MewCode also accepts the prompt as
 * a word after the flags (`mewcode -p --allowedTools Read "fix the bug"`), so a word after a rule
 * list is read as follows:
 * - a rule list when every rule in it looks like one: `Name(…)`, `mcp__…`, `*`, a tool name of
 *   Claude Code's or MewCode's, or a snake_case name (`todo_write`, a plugin's tool);
 * - the prompt when nothing in it looks like a rule (`fix the bug`, `Edit the parser`: words
 *   that merely name a tool among others are prose);
 * - a usage error when it mixes both (`Bash(ls) then fix`): nothing in it is guessed.
 * So a one-word prompt that names a tool (`Edit`) after the list is a rule: put the prompt
 * before the flags or after `--`. A rule is never taken as the prompt, so a deny list cannot
 * silently lose a rule to it.
 *
 * Nor is a word silently taken as a rule when it would leave the run without a prompt on its
 * command line (the prompt then read from stdin, or none): in `mewcode -p --allowedTools Read
 * "$TITLE" < body.txt` a title `Write` would become an allow rule. Such a list is a usage error
 * naming the word; end the list with `--`, give the rules as one value (`Read,Write`) or repeat
 * the flag to mean rules, or put the prompt after `--` to mean a prompt.
 */
import { CLAUDE_ONLY_TOOLS, CLAUDE_TO_OURS } from './claude-tool-names.js';
import { splitRuleList } from './subcommand-args.js';

/** The flag names, with Claude Code's kebab-case spellings, and the list each fills. */
export const RULE_LIST_FLAGS = {
  allowedTools: 'allowedTools',
  'allowed-tools': 'allowedTools',
  disallowedTools: 'disallowedTools',
  'disallowed-tools': 'disallowedTools',
} as const;

type RuleListName = (typeof RULE_LIST_FLAGS)[keyof typeof RULE_LIST_FLAGS];

/** The parseArgs options of the four flags (repeatable strings). */
export const RULE_LIST_OPTIONS = Object.fromEntries(Object.keys(RULE_LIST_FLAGS).map((name) => [name, { type: 'string', multiple: true }])) as Record<
  keyof typeof RULE_LIST_FLAGS,
  { type: 'string'; multiple: true }
>;

const TOOL_NAMES: ReadonlySet<string> = new Set([...Object.keys(CLAUDE_TO_OURS), ...Object.values(CLAUDE_TO_OURS), ...CLAUDE_ONLY_TOOLS]);

/** Unmistakably a rule: `Name(…)`, an MCP name or glob, or `*`. */
function isPlainRule(piece: string): boolean {
  return /^[A-Za-z_][\w-]*\(.*\)$/s.test(piece) || piece.startsWith('mcp__') || piece === '*';
}

/** A rule or a word: a tool name, or a snake_case name as plugins' tools are named. */
function mayBeRule(piece: string): boolean {
  return TOOL_NAMES.has(piece) || /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(piece);
}

/** What a word after a rule list is (see the file comment). */
export function classifyWord(word: string): 'rules' | 'prompt' | 'mixed' {
  const pieces = splitRuleList([word]);
  if (pieces.length === 0) return 'prompt';
  if (pieces.every((piece) => isPlainRule(piece) || mayBeRule(piece))) return 'rules';
  return pieces.some(isPlainRule) ? 'mixed' : 'prompt';
}

/** The subset of parseArgs' tokens this reads. */
export type ArgToken = { kind: 'option'; name: string; value?: string | undefined } | { kind: 'positional'; value: string } | { kind: 'option-terminator' };

export type RuleLists = { ok: true; allowedTools: string[]; disallowedTools: string[]; positionals: string[] } | { ok: false; error: string };

/**
 * The rules of the four flags and the remaining positionals, from parseArgs' tokens in order.
 * `words`: what a word after a rule list may be — `prompt` (the run's command line, see the file
 * comment), or `rules` where there is no prompt (`mewcode acp`): every word is then a rule.
 */
export function gatherRuleLists(tokens: readonly ArgToken[], words: 'prompt' | 'rules' = 'prompt'): RuleLists {
  const lists: Record<RuleListName, string[]> = { allowedTools: [], disallowedTools: [] };
  const positionals: string[] = [];
  let open: RuleListName | undefined;
  let flag = '';
  // A word after a flag's own value taken as a rule while no prompt has followed (see the file comment).
  let swallowed: { word: string; flag: string } | undefined;
  // The flag seen after the prompt's words began: a word after it is not added to the prompt.
  let after: string | undefined;
  for (const token of tokens) {
    if (token.kind === 'option') {
      if (positionals.length > 0 && after === undefined) after = token.name;
      open = Object.hasOwn(RULE_LIST_FLAGS, token.name) ? RULE_LIST_FLAGS[token.name as keyof typeof RULE_LIST_FLAGS] : undefined;
      flag = token.name;
      if (open && token.value !== undefined) lists[open].push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') {
      // `--` ends the list on purpose: what it held is rules, whatever follows.
      open = undefined;
      swallowed = undefined;
      continue;
    }
    if (open) {
      const kind = words === 'rules' ? 'rules' : classifyWord(token.value);
      if (kind === 'rules') {
        lists[open].push(token.value);
        if (words === 'prompt') swallowed = { word: token.value, flag };
        continue;
      }
      if (kind === 'mixed') {
        return {
          ok: false,
          error: `"${token.value}" after --${flag} mixes tool rules and other words: give each rule to the flag, and the prompt before the flags or after --`,
        };
      }
      open = undefined;
    }
    if (after !== undefined && words === 'prompt') {
      // `-p go --model x extra`: a word a flag did not take would be sent to the model as part of
      // the message (a second config's JSON once was); the prompt is the one run of words.
      return {
        ok: false,
        error: `"${token.value}" is a second prompt after --${after} (the prompt "${positionals.join(' ')}" came before it): --${after} takes no further value here. Quote the prompt as one argument, before the flags or after --`,
      };
    }
    positionals.push(token.value);
  }
  if (swallowed && positionals.length === 0) {
    return {
      ok: false,
      error:
        `"${swallowed.word}" after --${swallowed.flag} is the last word of the command line: as a rule it would leave no prompt there (it would then be read from stdin, or none), so it is not guessed. ` +
        `For rules, end the list with -- or give them as one value (--${swallowed.flag} "Read,Write"); for a prompt, put it after -- (or before the flags)`,
    };
  }
  return { ok: true, allowedTools: splitRuleList(lists.allowedTools), disallowedTools: splitRuleList(lists.disallowedTools), positionals };
}
