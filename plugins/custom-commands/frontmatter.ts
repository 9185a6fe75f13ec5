/**
 * A command file's frontmatter, read as leniently as Claude Code reads it. Strict YAML rejects
 * many real files (an unquoted `: ` or `<example>` inside a description), so when `yaml` cannot
 * parse the block as a mapping, a line reader takes each `key: value` line (indented lines
 * continue the previous value). Only a block that opens and never closes is unreadable.
 */
import { loadOnce } from '../../sdk/load-once.js';

/** `yaml` is loaded with the first file that has frontmatter, not at start-up. */
const yamlModule = loadOnce(() => import('./yaml-mapping.js'));

export type Frontmatter = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; error: string };

const KEY_LINE = /^([A-Za-z_][\w-]*)\s*:(?:\s+(.*)|\s*)$/;

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.at(-1) === trimmed[0] ? trimmed.slice(1, -1) : trimmed;
}

/** `key: value` lines; an indented line or a `- item` continues the previous key. */
export function readKeyValueLines(block: string): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  let last: string | undefined;
  for (const line of block.split('\n')) {
    const match = KEY_LINE.exec(line);
    if (match) {
      last = match[1]!;
      data[last] = unquote(match[2] ?? '');
    } else if (last && /^\s+\S/.test(line)) {
      const item = line.trim().replace(/^-\s+/, '');
      const previous = String(data[last] ?? '');
      data[last] = previous ? `${previous} ${unquote(item)}` : unquote(item);
    }
  }
  return data;
}

async function strictMapping(block: string): Promise<Record<string, unknown> | undefined> {
  return (await yamlModule()).yamlMapping(block);
}

export async function readFrontmatter(raw: string): Promise<Frontmatter> {
  const text = (raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw).replace(/\r\n?/g, '\n');
  if (!/^---[ \t]*(\n|$)/.test(text)) return { ok: true, data: {}, body: text };
  const lines = text.split('\n');
  const closing = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)[ \t]*$/.test(line));
  if (closing === -1) return { ok: false, error: 'the frontmatter starts with --- on line 1 but no line closes it (---)' };
  const block = lines.slice(1, closing).join('\n');
  const data = (await strictMapping(block)) ?? readKeyValueLines(block);
  return { ok: true, data, body: lines.slice(closing + 1).join('\n') };
}
