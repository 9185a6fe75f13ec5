/**
 * The blacklist decision for one command line: parse it into segments (plugins/shell-command),
 * follow `cd`, check every segment with the ten patterns, check defined functions for fork bombs,
 * and — when the command does not parse cleanly, is opaque (may evaluate strings as code) or the
 * parser is unavailable — also check the raw text conservatively (quotes stripped, split at every operator, every word position tried).
 */
import { analyzeShellCommand, type ShellAnalysis } from '../../sdk/shell-command/index.js';
import { findForkBomb, textLooksLikeForkBomb } from './fork-bomb.js';
import { checkSegment, checkWords, commandNameOf, isCheckedCommand, nextDirectory } from './patterns.js';
import { isBlockDevice, normaliseOperand, type Where } from './targets.js';

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
  /** Called once per command the parser could not handle at all (not for mere syntax errors). */
  onParserFailure?(error: unknown): void;
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
  if (analysis) {
    const where: Where = { cwd: trimSlash(options.projectRoot), home };
    for (const segment of analysis.parsed.segments) {
      const hit = checkSegment(segment, where);
      if (hit) return { pattern: hit.pattern, segment: segment.text, fromRawText: false };
      where.cwd = nextDirectory(segment.argv, where);
    }
    const bomb = findForkBomb(analysis.functions);
    if (bomb) return { pattern: `fork bomb (function ${bomb.name} starts copies of itself)`, segment: command.trim(), fromRawText: false };
    // An opaque command (arithmetic, `${x@P}`, … that may run a `$(…)` hidden in a string) gets
    // the raw-text check too; its code-like literal strings are already segments (the parser).
    if (analysis.parsed.parseError === undefined && analysis.parsed.opaque === undefined) return undefined;
  }
  return checkRawText(command, { cwd: undefined, home });
}

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

export function checkRawText(command: string, where: Where): BlacklistHit | undefined {
  if (command.length > MAX_RAW_TEXT) return { pattern: `a command longer than ${MAX_RAW_TEXT} characters that does not parse cannot be checked`, segment: `${command.slice(0, 60)}…`, fromRawText: true };
  const text = command.replace(/['"\\]/g, '');
  if (textLooksLikeForkBomb(command) || textLooksLikeForkBomb(text)) return { pattern: 'fork bomb', segment: command.trim(), fromRawText: true };
  for (const piece of text.split(/[;&|\n(){}`]|\$\(|<\(|>\(/)) {
    const redirect = /(?:^|[^<>&0-9])\d*(?:>>?|&>>?|>\||<>)\s*(\/dev\/\S+)/.exec(piece);
    if (redirect && isBlockDevice(normaliseOperand(redirect[1]!, where))) return { pattern: `redirect to the block device ${redirect[1]}`, segment: piece.trim(), fromRawText: true };
    const words = piece.split(/\s+/).filter((w) => w !== '');
    for (let i = 0; i < words.length; i++) {
      const name = commandNameOf(words[i]);
      if (name === undefined || !isCheckedCommand(name, words[i]!)) continue;
      const hit = checkWords(words.slice(i), where);
      if (hit) return { pattern: hit.pattern, segment: piece.trim(), fromRawText: true };
    }
  }
  return undefined;
}
