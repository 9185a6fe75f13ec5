/**
 * Whether a skill folder carries scripts: executable files, or files with a script extension.
 * A project's skill with scripts is code a repository brought; it loads only in a trusted
 * project (A12). The walk is bounded (depth and entries) so a huge folder costs little.
 */
import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const SCRIPT_EXTENSIONS = new Set(['.sh', '.bash', '.zsh', '.fish', '.py', '.js', '.mjs', '.cjs', '.ts', '.rb', '.pl', '.php', '.ps1', '.bat', '.cmd', '.exe', '.lua']);
/** Files that are read, not run: their mode is not looked at (one stat fewer per file). */
const DATA_EXTENSIONS = new Set(['.md', '.markdown', '.txt', '.json', '.yaml', '.yml', '.toml', '.csv', '.html', '.xml', '.svg', '.png', '.jpg', '.jpeg', '.gif', '.pdf']);
const MAX_DEPTH = 4;
const MAX_ENTRIES = 512;

/** Paths (relative to `dir`) of the scripts found, sorted. */
export async function findScripts(dir: string): Promise<string[]> {
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
      else if (SCRIPT_EXTENSIONS.has(extension)) found.push(path.relative(dir, full));
      else {
        const info = target ?? (await lstat(full).catch(() => undefined));
        if (info && (info.mode & 0o111) !== 0) found.push(path.relative(dir, full));
      }
    }
  };
  await walk(dir, 1);
  return found;
}
