/**
 * The blacklist decision for one command line: parse it into segments (sdk/shell-command),
 * check every segment — in every directory it may run in after `cd` — with the ten patterns and
 * the destructive-verbs-outside-the-project rule, check defined functions for fork bombs,
 * and — when the command does not parse cleanly, is opaque (may evaluate strings as code; a
 * shell fed by stdin or `<(…)`, `parallel`, interpreter text …) or the parser is unavailable —
 * also check the raw text conservatively (quotes stripped, split at every operator, every word
 * position tried), so `sh < <(echo rm -rf ~)` is judged on the `rm -rf ~` it feeds the shell.
 */
import { analyzeShellCommand, type ShellAnalysis } from '../../sdk/shell-command/index.js';
import { linkMakersBesides } from '../../sdk/shell-command/link-makers.js';
import { findForkBomb, textLooksLikeForkBomb } from './fork-bomb.js';
import path from 'node:path';
import { insideRoots, type Inside } from './outside-targets.js';
import { checkSegment, checkWords, commandNameOf, expandSplitting, isCheckedCommand } from './patterns.js';
import { HOME, isBlockDevice, normaliseOperand, type Where } from './targets.js';

/** For the plugin's warm(): the parser loads with the checks, not at the first command. */
export { loadShellParser } from '../../sdk/shell-command/index.js';
export { unverifiableCommand } from './unverifiable.js';

export interface BlacklistHit {
  pattern: string;
  /** The segment's source text, or the piece of raw text for an unparseable command. */
  segment: string;
  /** True when found by the raw-text check of a command that did not parse. */
  fromRawText: boolean;
}

export interface CheckOptions {
  projectRoot: string;
  homeDir: string | undefined;
  /** Where the command starts (the bash call's workdir); the project root by default. */
  startDir?: string;
  /** Directories besides the project where destructive verbs may act (permissions.additional_directories). */
  additionalDirectories?: readonly string[];
  /** Called once per command the parser could not handle at all (not for mere syntax errors). */
  onParserFailure?(error: unknown): void;
  /**
   * The OS sandbox confines the command: a link the line itself makes cannot lead a delete out of
   * the writable project there (the rest is read-only), so such lines are judged as written.
   */
  sandboxed?: boolean;
}

export async function checkCommand(command: string, options: CheckOptions): Promise<BlacklistHit | undefined> {
  if (command.trim() === '') return undefined;
  const home = options.homeDir === undefined ? undefined : trimSlash(options.homeDir);
  let analysis: ShellAnalysis | undefined;
  try {
    analysis = await analyzeShellCommand(command);
  } catch (error) {
    options.onParserFailure?.(error);
  }
  const inside = insideRoots(options.projectRoot, options.additionalDirectories ?? []);
  const start = trimSlash(options.startDir ?? options.projectRoot);
  if (analysis) {
    const linkers = options.sandboxed === true ? [] : linkMakersBesides(analysis.parsed.segments);
    for (const [index, segment] of analysis.parsed.segments.entries()) {
      const linkedBy = linkers[index];
      for (const cwd of directories(segment.dirs, start)) {
        const hit = checkSegment(segment, { cwd, home, inside, ...(linkedBy === undefined ? {} : { linkedBy }) });
        if (hit) return { pattern: hit.pattern, segment: segment.text, fromRawText: false };
      }
    }
    const bomb = findForkBomb(analysis.functions);
    if (bomb) return { pattern: `fork bomb (function ${bomb.name} starts copies of itself)`, segment: command.trim(), fromRawText: false };
    // An opaque command (arithmetic, `${x@P}`, … that may run a `$(…)` hidden in a string) gets
    // the raw-text check too; its code-like literal strings are already segments (the parser).
    if (analysis.parsed.parseError === undefined && analysis.parsed.opaque === undefined) return undefined;
  }
  return checkRawText(command, { cwd: undefined, home, inside });
}

/** The directories a segment may run in (see ShellSegment.dirs), as blacklist `cwd`s (home as HOME). */
function directories(dirs: readonly string[] | null | undefined, start: string): (string | undefined)[] {
  if (dirs === null) return [undefined];
  return (dirs ?? ['.']).map((dir) => {
    if (dir === '~' || dir.startsWith('~/')) return HOME + dir.slice(1);
    if (dir.startsWith('~')) return undefined; // ~user
    return path.posix.resolve(start, dir);
  });
}

export type { Inside };

function trimSlash(dir: string): string {
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

/**
 * The conservative check for text the parser could not read: quotes and backslashes removed,
 * split at every shell operator and bracket, and the patterns tried from every word that names a
 * command — so `echo "rm -rf /" (` is refused too. The directory is treated as unknown.
 */
/** Longer unparseable text is refused outright: checking it word by word would take too long. */
export const MAX_RAW_TEXT = 65_536;

/** Words after which an expansion is an operand of a test, not a command (`[[ $x -eq 1 ]]`). */
const TEST_CONTEXT = /^(?:\[\[?|test|-(?:eq|ne|lt|le|gt|ge|nt|ot|ef|[a-zA-Z])|==?|!=|=~|<|>)$/;

export function checkRawText(command: string, where: Where): BlacklistHit | undefined {
  if (command.length > MAX_RAW_TEXT) return { pattern: `a command longer than ${MAX_RAW_TEXT} characters that does not parse cannot be checked`, segment: `${command.slice(0, 60)}…`, fromRawText: true };
  // `{rm,-rf,~}` is the words `rm -rf ~` (brace expansion at the start of a word).
  const text = command.replace(/['"\\]/g, '').replace(/(^|[\s;&|(`])\{([^{}\s]*,[^{}\s]*)\}/g, (_, before: string, list: string) => `${before} ${list.split(',').join(' ')} `);
  if (textLooksLikeForkBomb(command) || textLooksLikeForkBomb(text)) return { pattern: 'fork bomb', segment: command.trim(), fromRawText: true };
  for (const piece of text.split(/[;&|\n(){}`]|\$\(|<\(|>\(/)) {
    const redirect = /(?:^|[^<>&0-9])\d*(?:>>?|&>>?|>\||<>)\s*(\/dev\/\S+)/.exec(piece);
    if (redirect && isBlockDevice(normaliseOperand(redirect[1]!, where))) return { pattern: `redirect to the block device ${redirect[1]}`, segment: piece.trim(), fromRawText: true };
    // `:::` / `::::` are GNU parallel's argument separators, never paths (its arguments are).
    const words = piece.split(/\s+/).filter((w) => w !== '' && !/^::::?\+?$/.test(w));
    for (let i = 0; i < words.length; i++) {
      const name = commandNameOf(words[i]);
      if (name === undefined || !isCheckedCommand(name, words[i]!)) continue;
      // `[[ $# -eq 0 ]]`: an expansion that is a test's operand is not a command name.
      if (/[$`]/.test(words[i]!) && i > 0 && TEST_CONTEXT.test(words[i - 1]!)) continue;
      const hit = checkWords(words.slice(i), where) ?? (() => {
        const expanded = expandSplitting(words.slice(i));
        return expanded ? checkWords(expanded, where) : undefined;
      })();
      if (hit) return { pattern: hit.pattern, segment: piece.trim(), fromRawText: true };
    }
  }
  return undefined;
}
