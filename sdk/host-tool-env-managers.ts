/**
 * Content judges (as host-tool-content.ts) for the files of environment managers and language
 * servers that run something when the folder is entered or opened: devbox's `devbox.json`, pixi's
 * manifest, Haskell's `hie.yaml`, `cabal.project` and `stack.yaml`. Each answers what it found, or
 * undefined for a file that only picks packages and versions. They err wide, as the others do.
 */
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { isTable } from './host-tool-content.js';
import { shown } from './host-tool-versions.js';

/** Every table key of a parsed document, at any depth (arrays of tables included). */
function* keysOf(value: unknown): Generator<string> {
  if (Array.isArray(value)) for (const item of value) yield* keysOf(item);
  else if (isTable(value)) {
    for (const [key, inner] of Object.entries(value)) {
      yield key;
      yield* keysOf(inner);
    }
  }
}

/**
 * A devbox package that is not a name from the package index (`nodejs@20`, `python@3.12`): a flake
 * (`github:owner/repo#pkg`, `path:./x`, `./x`), built and put first on PATH at `devbox shell` and,
 * through `devbox generate direnv`, when you enter the folder.
 */
const DEVBOX_INDEX_PACKAGE = /^[A-Za-z0-9_][\w.+-]*(?:@[\w.*+-]+)?$/;

/**
 * devbox's `devbox.json` (comments allowed): `shell.init_hook` runs at `devbox shell` and, with
 * direnv, at `cd`; `include` loads plugins (with their own hooks and variables); `env` and
 * `env_from` set variables for every program the shell starts; a flake package is built from the
 * project. A file that does not parse counts, as does an escape (a key spelled with one).
 */
export function judgeDevboxJson(text: string): string | undefined {
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  const errors: ParseError[] = [];
  const document: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isTable(document)) return 'text that does not parse as devbox reads it';
  for (const key of keysOf(document)) {
    if (/^(?:init_hook|include|env|env_from)$/i.test(key)) return `a \`${key}\` setting (devbox applies it when you enter the folder)`;
  }
  const packages = document.packages;
  const names = Array.isArray(packages) ? packages : isTable(packages) ? Object.keys(packages) : [];
  for (const name of names) {
    if (typeof name !== 'string' || !DEVBOX_INDEX_PACKAGE.test(name)) return `a package built from elsewhere than devbox's index (${shown(String(name))})`;
  }
  return undefined;
}

/**
 * pixi's manifest (`pixi.toml`; `pyproject.toml`'s `[tool.pixi]`): `[activation]` (at the top, in a
 * `target.<platform>` or a `feature.<name>`) holds scripts and variables pixi applies at `pixi
 * shell`, `pixi run` and, through direnv (`pixi shell-hook`), when you enter the folder. A
 * pyproject.toml is judged in its `tool.pixi` table only; text that does not parse counts when it
 * holds the word (pixi's parser may read what this one refuses).
 */
export function judgePixiManifest(text: string, inPyproject: boolean): string | undefined {
  let document: unknown;
  try {
    document = parseToml(text);
  } catch {
    return /activation/i.test(text) ? 'text that does not parse as TOML, with an `activation` in it (pixi may read it otherwise)' : undefined;
  }
  const pixi = inPyproject ? (isTable(document) && isTable(document.tool) ? document.tool.pixi : undefined) : document;
  for (const key of keysOf(pixi)) if (key.toLowerCase() === 'activation') return 'an `[activation]` table (pixi runs its scripts when the environment is activated)';
  return undefined;
}

/**
 * The Haskell language server's `hie.yaml` (read when an editor opens the folder, no trust step):
 * a `bios` cradle runs a program or a shell line, a `direct` cradle's arguments may run a
 * preprocessor or load a plugin, and `cabalProject`/`stackYaml` read another file of any name.
 * `cabal`, `stack`, `multi` and `none` cradles over components pass.
 */
export function judgeHieYaml(text: string): string | undefined {
  const found = /bios|program|shell|direct|arguments|pgm|plugin|cabalproject|stackyaml|dependenc|\\/i.exec(text);
  return found ? `a \`${found[0]}\` setting (the language server would run or read what it names)` : undefined;
}

/** A `with-compiler` of a bare GHC name (`ghc`, `ghc-9.6.4`), found on PATH: the one value that passes. */
const GHC_NAME = /^ghc(?:-[\d.]+)?$/;

/**
 * cabal's `cabal.project` (and `.local`, `.freeze`), read by every `cabal` there and by the language
 * server when the folder opens (it asks cabal to build): `with-compiler` naming a path,
 * `with-hc-pkg`, a program's `*-location` or `*-options`, `extra-prog-path`, `ghc-options` running
 * a preprocessor or plugin, an `import` of another file.
 */
export function judgeCabalProject(text: string): string | undefined {
  if (text.includes('\\')) return 'an escape sequence';
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/--.*$/, '').trim().toLowerCase();
    const match = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) {
      if (/^(?:program-locations|program-options|import)\b/.test(line)) return `a \`${line.split(/\s/)[0]}\` stanza`;
      continue;
    }
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'with-compiler' && !GHC_NAME.test(value)) return `a compiler named by a path (${shown(value)})`;
    if (/^(?:with-hc-pkg|extra-prog-path|import|[\w-]+-location|[\w-]+-path)$/.test(key)) return `a \`${key}\` setting`;
    if (/-pgm|-fplugin/.test(value)) return `options that run a program or load a plugin (${shown(value)})`;
  }
  return undefined;
}

/**
 * Stack's `stack.yaml`, read by every `stack` there and by the language server when the folder
 * opens: programs (`with-gcc`, `with-hpack`), where GHC and tools come from (`setup-info`,
 * `setup-info-locations`, `local-programs-path`, `extra-path`), options running a preprocessor, and
 * the shell Nix builds.
 */
export function judgeStackYaml(text: string): string | undefined {
  const found = /with-gcc|with-hpack|setup-info|local-programs-path|extra-path|-pgm|-fplugin|shell-file|\bnix\s*:|\bdocker\s*:|custom-preprocessor|\\/i.exec(text);
  return found ? `a \`${found[0]}\` setting` : undefined;
}
