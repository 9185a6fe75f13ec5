/**
 * Whether a toolchain or package-manager file (host-tool-files.ts, kind `toolchain`) names a
 * program or a path the tool would run or put on PATH. Each judge answers what it found (for the
 * message), or undefined for a file that only selects versions. They err wide: what a tool would
 * not read as a setting (a comment, a word in a value) may still count, and what cannot be read
 * as the judge expects (an escape in a quoted key, a line it does not know) counts too. Agents bump
 * versions in these files all day, so a plain version never counts.
 */

/** A value that is a path: absolute, home-relative or `./`, `../` (a bare name is a version). */
const PATH_VALUE = /^(?:\/|~|\.\.?(?:\/|$))/;

/** Lines without comments (`#` to the end: TOML, YAML, INI, `.tool-versions`), trimmed, the empty ones dropped. */
const lines = (text: string, comment = /#.*$/): string[] =>
  text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(comment, '').trim())
    .filter((line) => line !== '');

const unquote = (word: string): string => word.replace(/^["']|["']$/g, '');

/** mise's template syntax (Tera): `{{ exec(command="…") }}` runs a command wherever it is evaluated. */
const TEMPLATE = /\{\{|\{%/;

/**
 * `.tool-versions` (asdf, mise): `<tool> <version>…` per line. mise and asdf take `path:<dir>` as
 * a version and put `<dir>/bin` first on PATH when the folder is entered (no trust asked).
 */
export function judgeToolVersions(text: string): string | undefined {
  if (/path:/i.test(text)) return 'a tool version given as `path:`';
  for (const line of lines(text)) {
    const [, ...versions] = line.split(/\s+/);
    const found = versions.find((version) => PATH_VALUE.test(version) || TEMPLATE.test(version));
    if (found !== undefined) return `a tool version given as a path (${found})`;
  }
  return undefined;
}

/**
 * The tables a mise configuration may hold without naming a program that runs when the folder is
 * entered: tools (as plain versions), tasks (run only by `mise run`), aliases, template vars.
 * Everything else counts: `[env]` (a variable reaches every program the shell starts afterwards,
 * and many name programs: PAGER, GIT_SSH_COMMAND, LD_PRELOAD, PATH), `[hooks]` (enter, cd,
 * leave), `[[watch_files]]` (run by the prompt hook), `[plugins]` (fetched and run),
 * `[settings]`, and any table mise adds later.
 */
const MISE_INERT_TABLES = new Set(['tools', 'tasks', 'task_config', 'alias', 'tool_alias', 'vars', 'redactions', 'min_version']);

/** A TOML key or table name split into its parts, quotes taken off (an escape in one stays visible: it counts). */
const keyParts = (key: string): string[] => key.split('.').map((part) => unquote(part.trim()).toLowerCase());

/**
 * mise's TOML files (`mise.toml`, `.mise.toml`, `mise.local.toml`, `.mise/`, `.config/mise/`…).
 * mise trusts a configuration by its path: a trusted file changed later runs what it now names.
 * Read line by line, not as TOML: a real table header or key is always at the start of a line of
 * its own, so a multi-line string can only make more lines count, never hide one; a key spelled
 * with an escape counts (it may be read as another).
 */
export function judgeMiseToml(text: string): string | undefined {
  const found = new Set<string>();
  if (/path:/i.test(text)) found.add('a tool given as `path:`');
  if (TEMPLATE.test(text)) found.add('a template (mise runs the commands a template names)');
  if (/postinstall/i.test(text)) found.add('a `postinstall` command');
  let table: string[] = [];
  for (const line of lines(text)) {
    const header = /^\[\[?\s*(.+?)\s*\]\]?$/.exec(line);
    if (header) {
      table = keyParts(header[1]!);
      if (header[1]!.includes('\\')) found.add(`a table name spelled with an escape ([${header[1]}])`);
      else if (!MISE_INERT_TABLES.has(table[0]!)) found.add(`the [${header[1]}] table`);
      else if (table.includes('_')) found.add(`a [${header[1]}] directive`);
      continue;
    }
    const assignment = /^((?:"[^"]*"|'[^']*'|[^=\s"']+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[^=\s."']+))*)\s*=/.exec(line);
    // The rest of a multi-line value. A real key this misses holds an escaped quote, so what it
    // names holds a quote too: never one of mise's tables.
    if (!assignment) continue;
    const key = [...table, ...keyParts(assignment[1]!)];
    if (assignment[1]!.includes('\\')) found.add(`a key spelled with an escape (${assignment[1]})`);
    else if (key.includes('_')) found.add(`a \`${key.join('.')}\` directive (sources a script, or adds to PATH)`);
    else if (!MISE_INERT_TABLES.has(key[0]!) && table.length === 0) found.add(`a \`${key.join('.')}\` setting`);
  }
  return found.size === 0 ? undefined : [...found].slice(0, 4).join(', ');
}

/**
 * `rust-toolchain.toml` and `rust-toolchain`: rustup runs the toolchain in the directory a `path`
 * names at every `rustc`/`cargo` (a prompt asking the version is enough). A legacy one-line file
 * names a channel; one that looks like a path counts.
 */
export function judgeRustToolchain(text: string): string | undefined {
  if (/\bpath\b/i.test(text)) return 'a toolchain `path`';
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  const body = lines(text);
  if (body.length === 1 && !/[=[]/.test(body[0]!) && (body[0]!.includes('/') || PATH_VALUE.test(body[0]!))) return `a toolchain given as a path (${body[0]})`;
  return undefined;
}

/**
 * Yarn 2+'s `.yarnrc.yml`: `yarnPath` (the yarn that every `yarn` in the folder runs, Yarn 1's
 * included), `plugins` (loaded by every yarn command), `injectEnvironmentFiles` (variables for
 * every script). YAML may quote a key and spell it with escapes: a backslash counts.
 */
export function judgeYarnrcYml(text: string): string | undefined {
  const found = /yarnpath|plugins|injectenvironmentfiles/i.exec(text);
  if (found) return `a \`${found[0]}\` setting`;
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/**
 * npm's settings that name a program npm (or pnpm, or node-gyp) runs, or a file it loads, even
 * with `--ignore-scripts`: `git=` (run for git dependencies), `script-shell`, `shell`,
 * `node-options` (`--require`), `editor`, `browser`, `viewer`, `init-module`, `onload-script`,
 * `node-gyp`, `python` (node-gyp's), `npm-path` and `pnpmfile` (pnpm's), `userconfig` and
 * `globalconfig` (more settings from a file of any name), and any key ending the same way.
 */
const NPM_PROGRAM_KEYS = new Set(['git', 'shell', 'editor', 'browser', 'viewer', 'node-gyp', 'python', 'userconfig', 'globalconfig', 'pnpmfile', 'global-pnpmfile', 'use-yarnrc', 'yarn-path', 'yarnpath']);
const NPM_PROGRAM_SUFFIX = /-(?:shell|path|script|options|module|cmd|command|pnpmfile)$/;

/**
 * `.npmrc` (npm, pnpm, Yarn 1) and Yarn 1's `.yarnrc` (`yarn-path`, and the npm settings it
 * shares). INI: `key=value`, or `key value` in `.yarnrc`; a quoted key is unquoted (npm's ini
 * reads `"g\u0069t"` as `git`, so an escape counts), `key[]` is the key, `_` is `-`.
 */
export function judgeNpmrc(text: string): string | undefined {
  for (const line of lines(text, /^\s*[#;].*$/)) {
    if (line.startsWith('[')) continue; // an INI section: npm reads none of its keys
    const raw = (/^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^=\s]+)/.exec(line.replace(/^--/, ''))?.[0] ?? line).trim();
    if (raw.includes('\\')) return `a key spelled with an escape (${raw})`;
    const key = unquote(raw).replace(/\[\]$/, '').replace(/_/g, '-').toLowerCase();
    const name = key.replace(/^(?:@[^:]+:|\/\/.*:)/, '');
    if (NPM_PROGRAM_KEYS.has(name) || NPM_PROGRAM_SUFFIX.test(name)) return `a \`${key}\` setting`;
  }
  return undefined;
}

/**
 * pnpm's `pnpm-workspace.yaml`, where pnpm 10 reads its settings: the same programs as `.npmrc`
 * spelled in camelCase, and `configDependencies` (packages whose pnpmfiles pnpm loads first).
 */
export function judgePnpmWorkspace(text: string): string | undefined {
  const found = /scriptshell|nodeoptions|pnpmfile|npmpath|configdependencies|\bshell\b/i.exec(text);
  if (found) return `a \`${found[0]}\` setting`;
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/** .NET's `global.json`: `sdk.paths` (.NET 10) makes every `dotnet` run an SDK from a folder it names. */
export function judgeGlobalJson(text: string): string | undefined {
  if (/paths/i.test(text)) return 'an SDK `paths` list';
  if (text.includes('\\u')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/**
 * Maven's `.mvn/jvm.config`: options for the JVM every `mvn` in the folder starts (`mvn -v`
 * included). An agent (`-javaagent:`, `-agentpath:`), an extension class path
 * (`-Dmaven.ext.class.path`), a class path, a program run on an error, an argument file (`@…`)
 * or a path counts; memory and `--add-opens` options do not.
 */
export function judgeJvmConfig(text: string): string | undefined {
  const found = /agent|onerror|onoutofmemory|class[.-]?path|module-path|patch-module|(?:^|\s)@|(?:^|[\s=:])(?:\/|~|\.\.?\/)/i.exec(text);
  if (found) return `a JVM option naming a program or a path (${found[0].trim()})`;
  return undefined;
}
