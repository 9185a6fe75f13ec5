/**
 * Whether a skill folder carries scripts: what the skill can have run. A project's skill with
 * scripts is code a repository brought; it loads only in a trusted project (A12). Counted:
 * executable files, shell and batch files (they exist to be run), and source files the skill says
 * it runs — in its `scripts/` or `bin/` folder (the Agent Skills convention), or named in its SKILL.md. A `.js`
 * template or a `.ts` example the skill never names is data, like its Markdown (many public skills
 * ship such files, and withholding them on that account only taught users to ignore the notice).
 * The walk is bounded (depth and entries) so a huge folder costs little.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const SCRIPT_EXTENSIONS = new Set(['.sh', '.bash', '.zsh', '.fish', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', '.php', '.ps1', '.bat', '.cmd', '.exe', '.lua']);
/** Files that exist only to be run: always scripts, wherever they lie. */
const RUN_ONLY_EXTENSIONS = new Set(['.sh', '.bash', '.zsh', '.fish', '.ps1', '.bat', '.cmd', '.exe']);
/** Files that are read, not run: their mode is not looked at (one stat fewer per file). */
const DATA_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.json', '.yaml', '.yml', '.toml', '.csv', '.html', '.xml', '.svg', '.png', '.jpg', '.jpeg', '.gif', '.pdf']);
const MAX_DEPTH = 4;
const MAX_ENTRIES = 512;

/** Top-level folders whose script-extension files are run by convention. */
const RUN_FOLDERS = new Set(['scripts', 'bin']);

/** Whether the skill's text names the file (its path in the folder, or its file name). */
function named(skillText: string, relative: string): boolean {
  return skillText.includes(relative) || skillText.includes(path.basename(relative));
}

/** Paths (relative to `dir`) of the scripts found, sorted; `skillText` is the SKILL.md that may name them. */
export async function findScripts(dir: string, skillText = ''): Promise<string[]> {
  const found: string[] = [];
  let budget = MAX_ENTRIES;
  const walk = async (current: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || budget <= 0) return;
    const entries = await readdir(current, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (--budget < 0) return;
      const full = path.join(current, entry.name);
      const extension = path.extname(entry.name).toLowerCase();
      // A link is judged by what it points to (`run.sh -> ../../tools/evil`, `bin -> ../tools`):
      // skipping links let a repository hide its scripts behind one.
      const target = entry.isSymbolicLink() ? await stat(full).catch(() => undefined) : undefined;
      if (entry.isDirectory() || target?.isDirectory()) await walk(full, depth + 1);
      else if (!(entry.isFile() || target?.isFile()) || DATA_EXTENSIONS.has(extension)) continue;
      else if (SCRIPT_EXTENSIONS.has(extension)) {
        const relative = path.relative(dir, full);
        const info = target ?? (await lstat(full).catch(() => undefined));
        const runFolder = RUN_FOLDERS.has(relative.split(path.sep)[0]!) && relative.includes(path.sep);
        if (RUN_ONLY_EXTENSIONS.has(extension) || runFolder || named(skillText, relative) || (info !== undefined && (info.mode & 0o111) !== 0)) found.push(relative);
      } else {
        const info = target ?? (await lstat(full).catch(() => undefined));
        if (info && (info.mode & 0o111) !== 0) found.push(path.relative(dir, full));
      }
    }
  };
  await walk(dir, 1);
  return found;
}
