/**
 * The names Python can import from a folder it searches before its standard library and the
 * installed packages: the script's folder (`sys.path[0]`; the current folder for `-m` and `-c`)
 * and the PYTHONPATH a setting gives. A module there shadows any of its name, wherever the import
 * is written: `subprocess` imports `selectors`, the MCP SDK `anyio`, `pydantic`, `httpx`. So the
 * code a project's trust covers is not only the modules its text names but the SET of names in
 * those folders: a module planted there since (by a sandboxed command) must ask again.
 *
 * Names only, one listing per folder: what a module named in the code's text contains is hashed
 * already (trust-code-loads.ts), and hashing every sibling would ask again at each edit of an
 * unrelated script. Importable, as Python's path finder looks: `<name>.py`, `.pyc` (sourceless),
 * `.pyw`, `.so` / `.pyd` with or without an ABI tag (`x.cpython-311-x86_64-linux-gnu.so`), and
 * a regular package's folder (see isRegularPackage), each `<name>` spelled as an import can spell it. `__pycache__` is left out: Python writes it itself, and reads from it
 * only the compiled form of a source beside it.
 */
import { type Dirent, lstatSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const MODULE_NAME = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
/** `<name>.py`, `<name>.pyc`, `<name>.pyw`, `<name>.so`, `<name>.pyd`, `<name>.<abi tag>.so|pyd`. */
const MODULE_FILE = /^([^.]+)\.(?:pyc?|pyw|so|pyd|[\w-]+\.(?:so|pyd))$/;
/** A folder lists at most this many names in the notice (all of them count). */
const SHOWN_NAMES = 40;

function isFolder(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(path.join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
}

/** `__init__` as a regular package holds it (source, sourceless or an extension module without an ABI tag). */
const PACKAGE_INITS = ['__init__.py', '__init__.pyc', '__init__.so', '__init__.pyd'];

/**
 * A folder shadows an import only as a regular package (it holds an `__init__`): a folder without
 * one is a namespace portion, which Python uses only when no module or regular package of that
 * name is found in any later path entry (PEP 420), so it hides nothing installed. Counting every
 * folder would ask for trust again at each `mkdir build`.
 */
function isRegularPackage(folder: string): boolean {
  return PACKAGE_INITS.some((init) => {
    try {
      return statSync(path.join(folder, init)).isFile();
    } catch {
      return false;
    }
  });
}

/** Whether an entry of a searched folder is a module or package Python may import: its name (`x.py`, `pkg/`) or undefined. */
function importableName(dir: string, entry: Dirent): string | undefined {
  if (MODULE_NAME.test(entry.name)) return entry.name !== '__pycache__' && isFolder(dir, entry) && isRegularPackage(path.join(dir, entry.name)) ? `${entry.name}/` : undefined;
  const file = MODULE_FILE.exec(entry.name);
  return file && MODULE_NAME.test(file[1]!) && !isFolder(dir, entry) ? entry.name : undefined;
}

/** The importable names in `dir`, sorted (folders end in `/`); empty when it cannot be listed. */
export function importableNames(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    const name = importableName(dir, entry);
    if (name !== undefined) names.push(name);
  }
  return names.sort();
}

/**
 * The first importable entry of `dir` made, renamed or changed at or after `sinceMs` (its change
 * time, which no process can set back): what a hook or server started again in a session would
 * import that was not there, or not that, when the session began.
 */
export function importableChangedSince(dir: string, sinceMs: number): string | undefined {
  for (const name of importableNames(dir)) {
    const entry = path.join(dir, name.replace(/\/$/, ''));
    try {
      if (lstatSync(entry).ctimeMs >= sinceMs) return entry;
    } catch {
      // Gone since the listing: nothing of it runs.
    }
  }
  return undefined;
}

/** How a searched folder's names read in the notice: every one up to SHOWN_NAMES. */
export function describeImportableNames(names: readonly string[]): string {
  const shown = names.slice(0, SHOWN_NAMES).join(', ');
  const more = names.length > SHOWN_NAMES ? `, and ${names.length - SHOWN_NAMES} more` : '';
  return names.length === 0 ? 'none' : `${shown}${more}`;
}
