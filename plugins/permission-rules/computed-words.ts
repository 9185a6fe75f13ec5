/**
 * Deny and ask rules against words the text does not show. A rule is matched against the written
 * words; a word bash computes at run time (`$G`, `$(echo push)`, `` `…` ``, a glob, a brace list)
 * or a subcommand renamed by a git alias on the command line (`git -c alias.xx=push xx`) may turn
 * out to be whatever the rule names. So a deny (ask) rule whose words agree with the command up to
 * such a word and go on to constrain that position (`Bash(git push *)` against `git $G origin`,
 * `Bash(rm -rf /)` against `rm -rf $X`) may match what runs: the engine denies (asks). A rule that
 * already differs before it (`Bash(git push *)` against `git log $(date)`) cannot match and
 * does not apply. Allow rules need nothing of this: they are matched against the written text,
 * where a computed word only matches a `*` its author wrote to cover anything.
 * A computed command name (the word at 0) is the engine's computedNameObjection: every rule.
 */
import { ruleForms } from './command-forms.js';
import { computedWord, withoutGlobalOptions } from './global-options.js';
import type { CompiledRule } from './rule-set.js';

/** The argv-based spellings of one command, each with the first position whose word is not known from the text. */
export interface UnknownWordAt {
  words: string[];
  at: number;
  why: string;
}

/**
 * The argv spellings (as deny rules see them) with a word at position ≥ 1 that is not known from
 * the text. `line` is the whole command line: one that names a `GIT_CONFIG…` variable (`export
 * GIT_CONFIG_PARAMETERS=…; git xx`) may give git an alias, so git's subcommand is unknown in it.
 */
export function unknownWords(argv: readonly string[], line = ''): UnknownWordAt[] {
  const name = argv[0];
  if (name === undefined) return [];
  const base = name.slice(name.lastIndexOf('/') + 1);
  const words = [base, ...argv.slice(1)];
  const analysed = ruleForms(words);
  const out: UnknownWordAt[] = [];
  const computed = argv.find((word, i) => i > 0 && computedWord(word));
  // The forms are strings (command-forms.ts); a computed word with spaces in it (`$(echo push)`)
  // splits into several, which moves nothing before it.
  for (const form of computed === undefined ? [] : [argv.join(' '), words.join(' '), ...analysed.forms]) {
    const split = form.split(' ');
    const at = split.findIndex((word, i) => i > 0 && computedWord(word));
    if (at > 0) out.push({ words: split, at, why: `${JSON.stringify(computed)} is computed at run time` });
  }
  const hidden = analysed.hiddenSubcommand;
  if (hidden) out.push({ words: hidden.form, at: 1, why: hidden.why });
  if (base === 'git' && /GIT_CONFIG/.test(line)) {
    const sub = withoutGlobalOptions(words);
    const form = sub.kind === 'stripped' || sub.kind === 'hidden' ? sub.form : words;
    if (form.length > 1) out.push({ words: form, at: 1, why: 'the command line sets a GIT_CONFIG variable, which may define a git alias' });
  }
  return out;
}

/**
 * Whether the rule may match the command whatever the word at `at` turns out to be: its words
 * before that position agree with the command's, and it has words from there on (a computed word
 * may also be empty or several words, so a rule that ends exactly there may match too). A rule
 * word with a `*` before the position may span anything: it may match. A regex rule may match
 * when it mentions the program. A negated rule (`!…`) is left to its ordinary match.
 */
export function mayMatchAt(rule: CompiledRule, words: readonly string[], at: number): boolean {
  const pattern = rule.parsed.pattern;
  if (!pattern || pattern.negations > 0) return false;
  if (pattern.kind === 'regex') return pattern.body.includes(words[0]!);
  let body = pattern.body.trim();
  if (pattern.kind === 'glob' && /(^|[^\\]):\*$/.test(body)) body = `${body.slice(0, -2)} *`;
  const tokens = body.split(/\s+/);
  for (let i = 0; i < at; i++) {
    const token = tokens[i];
    if (token === undefined) return false; // the rule ended before: it saw the literal words and did not match
    if (pattern.kind === 'glob' && /(^|[^\\])\*/.test(token)) return true;
    const literal = pattern.kind === 'glob' ? token.replace(/\\(.)/g, '$1') : token;
    if (literal !== words[i]) return false;
  }
  return true;
}
