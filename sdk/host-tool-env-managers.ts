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
 * (`github:owner/repo#pkg`, `path:./x`, `./x`) built from elsewhere, or a `runx:` one (a release
 * binary downloaded from GitHub), put first on PATH at `devbox shell` and, through
 * `devbox generate direnv`, when you enter the folder.
 */
const DEVBOX_INDEX_PACKAGE = /^[A-Za-z0-9_][\w.+-]*(?:@[\w.*+-]+)?$/;

/** An `init_hook` line that only prints (what `devbox init` writes: `echo 'Welcome to devbox!' > /dev/null`). */
const ECHO_ONLY = /^\s*echo\s+(?:'[^'$`\\]*'|"[^"$`\\]*"|[\w !.,:-]*)\s*(?:>\s*\/dev\/null\s*)?$/;

const stringsOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/**
 * devbox's `devbox.json` (comments allowed), read as devbox reads it: `shell.init_hook` runs at
 * `devbox shell` and, with direnv, at `cd` (one that only echoes passes); `include` loads plugins
 * (with their own hooks and variables); `env` and `env_from` set variables for every program the
 * shell starts; a package not from devbox's index is built or downloaded from elsewhere. Scripts
 * (`devbox run`) pass. A file that does not parse counts.
 */
export function judgeDevboxJson(text: string): string | undefined {
  const errors: ParseError[] = [];
  const document: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || !isTable(document)) return 'text that does not parse as devbox reads it';
  for (const key of ['include', 'env', 'env_from']) if (document[key] !== undefined) return `a \`${key}\` setting (devbox applies it when you enter the folder)`;
  const shell = isTable(document.shell) ? document.shell : {};
  for (const hook of stringsOf(shell.init_hook)) {
    if (hook !== undefined && (typeof hook !== 'string' || !ECHO_ONLY.test(hook))) return 'an `init_hook` (devbox runs it when you enter the folder)';
  }
  const packages = document.packages;
  const names = Array.isArray(packages) ? packages : isTable(packages) ? Object.keys(packages) : [];
  for (const name of names) {
    if (typeof name !== 'string' || !DEVBOX_INDEX_PACKAGE.test(name)) return `a package from elsewhere than devbox's index (${shown(String(name))})`;
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
 * The keys a YAML text may hold, read wide without a parser (the sweep and the file tools load
 * none for two small files): every word followed by `:` and a space or the line's end, in block or
 * flow style, quoted or not, comments included; a value's colon (`lib:ShellCheck`) is no key.
 * Undefined for what could spell a key otherwise: an escape sequence in the text, an explicit key
 * (`? bios`, `: value`).
 */
function yamlKeys(text: string): string[] | undefined {
  if (text.includes('\\') || /^[ \t-]*[?:](?:[ \t]|$)/m.test(text)) return undefined;
  // A quoted key ends at its quote: `{"cradle":{"bios":…}}` needs no space after the colon (JSON is YAML; a red team's).
  return [...text.matchAll(/(?:^|[\s{,[])(?:"([A-Za-z_][\w.-]*)"[ \t]*:|'([A-Za-z_][\w.-]*)'[ \t]*:|([A-Za-z_][\w.-]*)[ \t]*:(?=[ \t\r\n]|$))/gm)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/**
 * Options that make GHC run a program (a preprocessor, another phase's program) or load a plugin,
 * or pass options on to the C compiler or linker it runs (`-optl-B../x`: gcc runs the programs it
 * finds there; a red team's).
 */
const GHC_RUNS = /-pgm|-fplugin|-opt[a-z]*/;

/**
 * The Haskell language server's `hie.yaml` (read when an editor opens the folder, no trust step),
 * judged by its keys: a `bios` cradle runs a program or a shell line, a `direct` cradle's arguments may
 * run a preprocessor or load a plugin, and `cabalProject`/`stackYaml` read another file of any
 * name. `cabal`, `stack`, `multi` and `none` cradles over components pass.
 */
export function judgeHieYaml(text: string): string | undefined {
  const keys = yamlKeys(text);
  if (keys === undefined) return 'an escape sequence or an explicit key (a key spelled so is read as another)';
  const found = keys.find((key) => /^(?:bios|direct|program|shell|arguments|dependency-program|cabalproject|stackyaml|with-hie-bios)$/i.test(key));
  return found === undefined ? undefined : `a \`${found}\` setting (the language server would run or read what it names)`;
}

/** A `with-compiler` of a bare GHC name (`ghc`, `ghc-9.6.4`), found on PATH: the one value that passes. */
const GHC_NAME = /^ghc(?:-[\d.]+)?$/;

/**
 * cabal's `cabal.project` (and `.local`, `.freeze`), read by every `cabal` there and by the
 * language server when the folder opens (it asks cabal to build): `with-compiler` naming a path,
 * `with-hc-pkg`, a program's `*-location` or `extra-prog-path` (where programs are found),
 * `post-checkout-command` (run after fetching a source package), an `import` of another file, and
 * options running a program or loading a plugin on any line (a continued one included). Comments
 * are whole lines starting with `--`, as cabal has them; the documentation's locations
 * (`haddock-*-location`) pass.
 */
export function judgeCabalProject(text: string): string | undefined {
  for (const raw of text.split(/\r?\n|\r/)) {
    if (/^\s*--/.test(raw)) continue;
    const line = raw.trim().toLowerCase();
    if (GHC_RUNS.test(line)) return `options that run a program or load a plugin (${shown(line)})`;
    if (/^(?:program-locations|import)\b/.test(line)) return `a \`${line.split(/[\s:]/)[0]}\` stanza`;
    const match = /^([\w-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key, value] = match as unknown as [string, string, string];
    if (key === 'with-compiler' && !GHC_NAME.test(value)) return `a compiler named by a path (${shown(value)})`;
    if (/^haddock-[\w-]*-location$/.test(key)) continue;
    if (/^(?:with-hc-pkg|extra-prog-path|post-checkout-command|[\w-]+-location)$/.test(key)) return `a \`${key}\` setting`;
  }
  return undefined;
}

/**
 * Stack's `stack.yaml`, judged by its keys, read by every `stack` there and by the language server when the
 * folder opens: programs (`with-gcc`, `with-hpack`), where GHC and tools come from (`setup-info`,
 * `setup-info-locations`, `local-programs-path`, `extra-path`), the Nix shell Stack builds in
 * (`shell-file`, `nix-shell-options`), preprocessors, and GHC options running a program or loading
 * a plugin. A resolver, packages, extra-deps and Nix packages by name pass.
 */
export function judgeStackYaml(text: string): string | undefined {
  const keys = yamlKeys(text);
  if (keys === undefined) return 'an escape sequence or an explicit key (a key spelled so is read as another)';
  const found = keys.find((key) => /^(?:with-gcc|with-hpack|setup-info|setup-info-locations|local-programs-path|extra-path|shell-file|nix-shell-options|custom-preprocessor-extensions)$/i.test(key));
  if (found !== undefined) return `a \`${found}\` setting`;
  const options = /^\s*ghc-options\s*:[\s\S]*/im.exec(text)?.[0];
  if (options !== undefined && GHC_RUNS.test(options)) return 'GHC options that run a program or load a plugin';
  return undefined;
}
