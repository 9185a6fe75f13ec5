/**
 * The recovery attachment after a summary (C6): the files the model read most recently, as
 * they are on disk now (clean content: no line numbers, which would confuse it; cut to a
 * budget), the tools it has, and the notice that the summary is not authoritative. A summary
 * says "changed handler.ts"; the file says what is in it.
 *
 * Each file is put back only through the gate a model's read passes (`GatedRead`: a read_file
 * call through preToolUse, the permission chain and postToolUse, the reading here in the tool's
 * place): a file a rule or a plugin refuses now, or whose content a postToolUse tap withholds, is
 * named, never shown; a tap's redaction is what the model gets. Reading it here raw would hand
 * the model, and the session file, content no policy judged.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { inPackageDirectory } from '../../config/project-file.js';
import path from 'node:path';
import { isPathStrictlyWithin } from '../../types/path-within.js';
import { CHARS_PER_TOKEN, tokensOfChars } from '../../types/token-estimate.js';
import { RECOVERY_FILES, RECOVERY_TOKENS_PER_FILE } from './thresholds.js';
import { groupDigits } from '../../sdk/plain-intl.js';

/**
 * A recovered file's read as a read_file call of the session (kernel.callTool): `perform` reads
 * the file once the gate allowed the call; what it returns passes postToolUse. `allowed` false:
 * refused (perform never ran); `isError`: refused, failed or withheld. `content` is what the
 * model may see.
 */
export type GatedRead = (file: string, perform: () => Promise<{ content: string; isError?: boolean }>) => Promise<{ allowed: boolean; content: string; isError: boolean }>;

export const NOT_AUTHORITATIVE =
  'Important: the summary above only gives the thread of the earlier conversation. It is not authoritative: when you need the exact content of a file, an exact error message or the user\'s exact words, read the file again with your tools (or see section 6) instead of inferring code or facts from the summary.';

/** Below this many tokens left of the budget no further file is shown (a few lines help no one). */
const MIN_FILE_TOKENS = 200;

/**
 * Tokens all recovered files may take: 5 × 5,000, but at most a tenth of the window, so that a
 * small window's compacted history stays well under the threshold (else every turn would compact).
 */
export function recoveryBudget(contextWindow: number): number {
  return Math.min(RECOVERY_FILES * RECOVERY_TOKENS_PER_FILE, Math.floor(contextWindow / 10));
}

export interface RecoveryInput {
  projectRoot: string;
  /** Absolute paths, most recently read first. */
  recentFiles: readonly string[];
  tools: readonly string[];
  /** The window of the provider the next request goes to. */
  contextWindow: number;
  /** The gate each file's read passes; without one no file is shown (fail closed). */
  read: GatedRead | undefined;
}

export async function recoveryAttachment(input: RecoveryInput): Promise<string> {
  const files: string[] = [];
  const withheld: string[] = [];
  let budget = recoveryBudget(input.contextWindow);
  for (const file of input.read ? input.recentFiles : []) {
    const tokens = Math.min(RECOVERY_TOKENS_PER_FILE, budget);
    if (files.length >= RECOVERY_FILES || tokens < MIN_FILE_TOKENS) break;
    const shown = await fileSection(input.projectRoot, file, tokens, input.read!);
    if (!shown) continue;
    if ('withheld' in shown) {
      withheld.push(shown.withheld);
      continue;
    }
    files.push(shown.text);
    budget -= shown.tokens;
  }
  return [
    '# Recovered context',
    '## Recently read files (their current content)',
    files.length > 0 ? files.join('\n\n') : '(none)',
    // Named only: the reason a rule or a plugin gave is not repeated (a withholding tap's message may describe the content).
    ...(withheld.length > 0 ? [`Not shown (a permission rule or a plugin refuses reading them now, or withholds their content): ${withheld.join(', ')}. Do not rely on what the summary says of their content.`] : []),
    '## Tools available now',
    input.tools.length > 0 ? input.tools.join(', ') : '(none)',
    '## Notice',
    NOT_AUTHORITATIVE,
  ].join('\n\n');
}

type Section = { text: string; tokens: number } | { withheld: string };

/**
 * A file inside the project, read through the gate (see GatedRead) without following a link, not
 * binary; cut to the per-file budget. Undefined: not a file to recover (outside, gone, binary…).
 */
async function fileSection(projectRoot: string, file: string, maxTokens: number, read: GatedRead): Promise<Section | undefined> {
  const maxChars = Math.floor(maxTokens * CHARS_PER_TOKEN);
  if (!isPathStrictlyWithin(projectRoot, file)) return undefined;
  const relative = path.relative(projectRoot, file);
  // Layer 1's saved results are previews' targets, not files the user works on.
  if (relative.split(path.sep).slice(0, 2).join('/') === '.mewcode/sessions') return undefined;
  const display = relative.split(path.sep).join('/');
  // Read only once the gate allowed the call (so no policy's refusal is preceded by a read).
  const taken: { clean?: CleanText } = {};
  const gated = await read(file, async () => {
    const clean = readClean(projectRoot, file, maxChars);
    if (!clean) return { content: `${display} is not a regular text file inside the project now`, isError: true };
    taken.clean = clean;
    return { content: clean.text };
  });
  if (!gated.allowed) return { withheld: display };
  if (!taken.clean) return undefined; // allowed, but nothing to recover: skipped as before
  if (gated.isError) return { withheld: display };
  // What postToolUse left (a redaction may change the length): cut again to the budget.
  const text = gated.content.slice(0, maxChars);
  const more = taken.clean.more || gated.content.length > maxChars;
  const section = [`### ${display}`, '```', text, '```', ...(more ? [`[cut at about ${groupDigits(maxTokens)} tokens: read ${display} for the rest]`] : [])].join('\n');
  return { text: section, tokens: tokensOfChars(text.length) };
}

interface CleanText {
  text: string;
  /** Cut at the budget. */
  more: boolean;
}

/** The file's text as it is now, up to `maxChars`; undefined when it is not a regular, non-binary file inside the project. */
function readClean(projectRoot: string, file: string, maxChars: number): CleanText | undefined {
  try {
    // O_NONBLOCK: a FIFO put in the file's place would block the open (and the whole process) until a writer came.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) return undefined;
      // Several hard links: possibly a file outside under a second name; read_file refuses it too.
      if (info.nlink > 1 && !inPackageDirectory(file, projectRoot)) return undefined;
      // O_NOFOLLOW checks the last part only: a directory of the path may have become a link out of the project since the read.
      if (!isPathStrictlyWithin(realpathSync(projectRoot), realpathSync(file))) return undefined;
      // UTF-8: at most 4 bytes a character, so this many bytes hold the budget.
      const buffer = Buffer.alloc(maxChars * 4 + 4);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      if (buffer.subarray(0, read).includes(0)) return undefined;
      const decoded = buffer.subarray(0, read).toString('utf8');
      return { text: decoded.slice(0, maxChars), more: read === buffer.length || decoded.length > maxChars };
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined; // gone or unreadable since it was read: nothing to recover
  }
}
