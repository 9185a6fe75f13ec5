/**
 * Custom command files (`.claude/commands/**\/*.md`, `.mewcode/commands/**\/*.md`), as both the
 * workspace trust scan and the custom-commands plugin find them, so trust is asked for exactly the
 * files the plugin runs: the same folders, the same walk (depth, count, order, names), the same
 * size limit, the same test for a `` !`command` `` line (the part of a command file that runs
 * something) and the same reading of `allowed-tools` (which pre-approves tools for the turn the
 * command starts): the two reasons a project's command needs trust.
 */
import { oneLine } from './terminal-safe.js';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The project's (and the user's, under the home directory) command folders, lowest precedence first. */
export const COMMAND_DIRECTORIES = [path.join('.claude', 'commands'), path.join('.mewcode', 'commands')] as const;

const MAX_DEPTH = 4;
/** Files read per folder, the first in walk order. */
export const MAX_COMMAND_FILES = 1000;
/** A command file is read up to this size; a larger one is skipped. */
export const MAX_COMMAND_FILE_BYTES = 256 * 1024;
/** Letters, digits, `_`, `-` and `.` (Spec Kit's `speckit.specify` command file, which Claude Code runs as `/speckit.specify`). */
const NAME_PART = /^[A-Za-z0-9][\w.-]*$/;

/**
 * Either form Claude Code runs: a fenced block opened with ```` ```! ```` (its lines run as one
 * command; group 1) or a `` !`command` `` (groups 2 and 3). One expression, so a `` !`…` `` inside
 * a block is part of the block, and commands come in the order they are written.
 */
export const SHELL_COMMAND = /^```![ \t]*\r?\n([\s\S]*?)^```[ \t]*$|(^|[ \t])!`([^`\n]+)`/gm;

/**
 * The text commands are taken from, as the plugin that runs them reads it: no byte-order mark, LF
 * line ends, no NUL. The trust scan looks at this same text, so a `!` line hidden from it by a BOM,
 * a lone CR or a NUL cannot run either.
 */
export function runnableText(text: string): string {
  return (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n?/g, '\n').replace(/\u0000/g, '');
}

/** Whether a text holds a `` !`command` `` line or a ```` ```! ```` block. */
export function hasShellLines(text: string): boolean {
  // A fresh expression: a shared global one keeps lastIndex, and test() would start from it.
  return new RegExp(SHELL_COMMAND.source, 'm').test(runnableText(text));
}

/** The command of one SHELL_COMMAND match. */
export function shellCommandOf(match: readonly (string | undefined)[]): string {
  return (match[1] ?? match[3] ?? '').trim();
}

/** The commands of a text's `` !`command` `` lines and ```` ```! ```` blocks, in order. */
export function shellLineCommands(text: string): string[] {
  return [...runnableText(text).matchAll(new RegExp(SHELL_COMMAND.source, 'gm'))].map(shellCommandOf);
}

/**
 * The subfolders and name of a command file below its folder (`frontend/component.md` →
 * `['frontend', 'component']`), or undefined when a part is not a usable name (letters, digits,
 * `-`, `_`, `.`; not starting with `.` or `-`).
 */
export function commandNameParts(dir: string, file: string): string[] | undefined {
  const parts = path.relative(dir, file).slice(0, -'.md'.length).split(path.sep);
  return parts.every((part) => NAME_PART.test(part)) ? parts : undefined;
}

/**
 * The `.md` files below a command folder, sorted, bounded in depth and number. A linked file is
 * listed (its reader decides: a project's file must really lie inside the project); a linked
 * folder is followed only when `followLinkedFolders` (the user's own folders).
 */
export async function commandMarkdownFiles(dir: string, followLinkedFolders: boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || found.length >= MAX_COMMAND_FILES) return;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      const target = entry.isSymbolicLink() ? await stat(full).catch(() => undefined) : undefined;
      if (entry.isDirectory() || (followLinkedFolders && target?.isDirectory())) await walk(full, depth + 1);
      else if ((entry.isFile() || target?.isFile()) && entry.name.endsWith('.md') && found.length < MAX_COMMAND_FILES) found.push(full);
    }
  };
  await walk(dir, 1);
  return found;
}

/**
 * `allowed-tools` as a list: a YAML list, or one string in either spelling — commas
 * (`Read, Grep`) or spaces (`Read Grep`); a space inside a rule's parentheses does not split.
 */
export function toolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String).map((s) => s.trim()).filter(Boolean);
  if (typeof value !== 'string') return [];
  const entries: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of value) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current.trim()) entries.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) entries.push(current.trim());
  return entries;
}

/** The `allowed-tools` entries of a command file's frontmatter, as written (both spellings of the key). */
export function allowedToolsOf(data: Readonly<Record<string, unknown>>): string[] {
  return toolList(data['allowed-tools'] ?? data.allowed_tools);
}

/**
 * The `allowed-tools` entries a command file's text names, for the trust scan: read from the lines
 * of its frontmatter (a `allowed-tools:` or `allowed_tools:` key, its value on the line or as a
 * `- item` list below), without a YAML parser (config/ stays below sdk/). A spelling this misses
 * only loses the pre-approval (a value over several lines, a key spelled with escapes): the plugin,
 * which parses the file, pre-approves a project's file only when trust approved that file, and
 * trust lists only what this finds.
 */
export function commandAllowedTools(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return [];
  const tools: string[] = [];
  for (let i = 1; i < lines.length && lines[i]!.trim() !== '---'; i++) {
    const key = /^\s*["']?allowed[-_]tools["']?\s*:(.*)$/.exec(lines[i]!);
    if (!key) continue;
    tools.push(...toolList(key[1]!.trim().replace(/^\[|\]$/g, '').replace(/["']/g, '')));
    for (let j = i + 1; j < lines.length && /^\s*-\s/.test(lines[j]!); j++) tools.push(lines[j]!.replace(/^\s*-\s*/, '').replace(/^["']|["']$/g, '').trim());
  }
  return tools.filter(Boolean);
}

/**
 * `argument-hint` (or `argument_hint`) as its author wrote it. `argument-hint: [message]` is a YAML
 * list to a YAML reader, but Claude Code shows the text, brackets and all: a list is written back
 * as `[a, b]`, a number as itself. Undefined when absent or empty.
 */
export function argumentHintOf(data: Readonly<Record<string, unknown>>): string | undefined {
  const value = data['argument-hint'] ?? data.argument_hint;
  if (value === undefined || value === null) return undefined;
  const text = Array.isArray(value) ? `[${value.map((item) => (Array.isArray(item) ? `[${item.join(', ')}]` : String(item))).join(', ')}]` : typeof value === 'object' ? '' : String(value);
  // One line (printed after the command's name in /help and the menus), nothing a terminal acts on.
  return oneLine(text) || undefined;
}
