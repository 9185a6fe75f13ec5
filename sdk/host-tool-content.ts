/**
 * Whether a toolchain or package-manager file (host-tool-files.ts, kind `toolchain`) names a
 * program or a path the tool would run or put on PATH. Each judge answers what it found (for the
 * message), or undefined for a file that only selects versions. They err wide: what a tool would
 * not read as a setting (a comment, a word in a value) may still count, and what cannot be read
 * as the judge expects (an escape in a quoted key, a line it does not know) counts too. Agents bump
 * versions in these files all day, so a plain version never counts (host-tool-versions.ts judges
 * versions, and the files that hold nothing else).
 */
import { parse as parseToml } from 'smol-toml';
import { controlOffence, firstOffence, MANAGER_SLASH_FORMS, NEVER_IN_A_VERSION, remoteSource, shown, TEMPLATE, toolNameOffence, versionWordOffence } from './host-tool-versions.js';

/** Lines without comments (`#` to the end: TOML, YAML, INI), trimmed, the empty ones dropped. */
const lines = (text: string, comment = /#.*$/): string[] =>
  text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(comment, '').trim())
    .filter((line) => line !== '');

const unquote = (word: string): string => word.replace(/^["']|["']$/g, '');

/**
 * The tables a mise configuration may hold without naming a program that runs when the folder is
 * entered: tools (as plain versions), tasks (run only by `mise run`), aliases, template vars.
 * Everything else counts: `[env]` (a variable reaches every program the shell starts afterwards,
 * and many name programs: PAGER, GIT_SSH_COMMAND, LD_PRELOAD, PATH), `[hooks]` (enter, cd,
 * leave), `[[watch_files]]` (run by the prompt hook), `[plugins]` (fetched and run),
 * `[settings]`, and any table mise adds later. Compared as mise compares them, with case.
 */
const MISE_INERT_TABLES = new Set(['tools', 'tasks', 'task_config', 'alias', 'tool_alias', 'vars', 'redactions', 'min_version']);

export const isTable = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/** Every key path of a parsed TOML document (tables, arrays of tables, inline tables), with whether it holds a table. */
function* keyPaths(value: unknown, path: string[] = []): Generator<[string[], boolean]> {
  if (Array.isArray(value)) {
    for (const item of value) yield* keyPaths(item, path);
  } else if (isTable(value)) {
    for (const [key, inner] of Object.entries(value)) {
      yield [[...path, key], isTable(inner)];
      yield* keyPaths(inner, [...path, key]);
    }
  }
}

/** Every string under a parsed TOML value, keys of tables included. */
function* tomlStrings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* tomlStrings(item);
  else if (isTable(value)) {
    for (const [key, inner] of Object.entries(value)) {
      yield key;
      yield* tomlStrings(inner);
    }
  }
}

/** The versions a `[tools]` entry gives: `"22"`, `["22", "20"]`, `{ version = "22" }`, or an array of those. */
function* miseVersions(spec: unknown): Generator<string> {
  if (typeof spec === 'string') yield* spec.split(/\s+/).filter((word) => word !== '');
  else if (Array.isArray(spec)) for (const item of spec) yield* miseVersions(item);
  else if (isTable(spec) && typeof spec.version === 'string') yield* miseVersions(spec.version);
}

/** A path with a parent step, or absolute or home-relative, or a control character: in a tool's options (`bin_path`…). */
const optionOffence = (value: string): string | undefined =>
  /(?:^|[/\\])\.\.(?:[/\\]|$)|^[/~]|[\x00-\x1f\x7f-\x9f]/.test(value) ? `a tool option naming a path (${shown(value)})` : undefined;

/**
 * mise's `[tools]`, `[alias]` and `[tool_alias]`: versions as `.tool-versions` has them (a parent
 * step or a slash outside a `ref:` counts), tool names as there, and any other string (a tool's
 * options) that is a path leading out (`bin_path = "../../x"`).
 */
function miseToolsOffence(document: Record<string, unknown>): string | undefined {
  const tools = isTable(document.tools) ? Object.entries(document.tools) : [];
  // python's `virtualenv = ".venv"` puts that folder's bin first on PATH at `cd`, wherever it is.
  for (const [key] of keyPaths(document.tools)) if (key.at(-1)?.toLowerCase() === 'virtualenv') return 'a python virtualenv (its bin folder goes first on PATH when you enter the folder)';
  return (
    firstOffence(tools, ([name, spec]) => toolNameOffence(name) ?? firstOffence(miseVersions(spec), (version) => versionWordOffence(version, MANAGER_SLASH_FORMS))) ??
    firstOffence(tomlStrings(document.tools), optionOffence) ??
    firstOffence([...tomlStrings(document.alias), ...tomlStrings(document.tool_alias)], (value) => optionOffence(value) ?? (NEVER_IN_A_VERSION.test(value) ? `an alias naming a path (${shown(value)})` : undefined))
  );
}

/**
 * mise's TOML files (`mise.toml`, `.mise.toml`, `mise.local.toml`, `.mise/`, `.config/mise/`…).
 * mise trusts a configuration by its path: a trusted file changed later runs what it now names.
 * Parsed as TOML, as mise reads it: a table header inside a multi-line string is text, a key
 * spelled with escapes is the key it spells. A file that does not parse counts (mise's parser
 * may read what this one refuses). `path:`, templates and `postinstall` count anywhere in the
 * text, a string's words included.
 */
export function judgeMiseToml(text: string): string | undefined {
  const found = new Set<string>();
  if (/path:/i.test(text)) found.add('a tool given as `path:`');
  if (TEMPLATE.test(text)) found.add('a template (mise runs the commands a template names)');
  if (/postinstall/i.test(text)) found.add('a `postinstall` command');
  let document: unknown;
  try {
    document = parseToml(text);
  } catch {
    found.add('text that does not parse as TOML (mise may read it otherwise)');
  }
  for (const [key, table] of keyPaths(document)) {
    if (key.includes('_') && !table) found.add(`a \`${key.join('.')}\` directive (sources a script, or adds to PATH)`);
    else if (key.length === 1 && !MISE_INERT_TABLES.has(key[0]!)) found.add(table ? `the [${key[0]}] table` : `a \`${key[0]}\` setting`);
  }
  const tools = isTable(document) ? miseToolsOffence(document) : undefined;
  if (tools !== undefined) found.add(tools);
  // What the text holds after TOML's escapes (`\u007B\u007B exec(…) }}`, `"post\u0069nstall"`): mise renders and reads the parsed strings (a red team's).
  for (const value of tomlStrings(document)) {
    if (TEMPLATE.test(value)) found.add('a template spelled with escapes (mise runs the commands a template names)');
    if (/postinstall|path:/i.test(value)) found.add(`a \`${/postinstall/i.test(value) ? 'postinstall' : 'path:'}\` spelled with escapes`);
  }
  const remote = isTable(document) ? remoteSource([...tomlStrings(document.tools)].join('\n')) : undefined;
  if (remote !== undefined) found.add(remote);
  return found.size === 0 ? undefined : [...found].slice(0, 4).join(', ');
}

/**
 * `rust-toolchain.toml` and `rust-toolchain`: rustup runs the toolchain in the directory a `path`
 * names at every `rustc`/`cargo` (a prompt asking the version is enough), and finds a named one
 * in its toolchains folder: a channel, component or target with a slash, a parent step or a
 * control character counts, as does a TOML file that does not parse. A legacy one-line file
 * names a channel, judged the same way.
 */
export function judgeRustToolchain(text: string): string | undefined {
  if (/\bpath\b/i.test(text)) return 'a toolchain `path`';
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  const control = controlOffence(text);
  if (control !== undefined) return control;
  // A legacy one-line file is a channel as it is: rustup strips no comment there (`nightly#/../x` is one name).
  const body = lines(text, /^\s*#.*$/);
  if (body.length === 1 && !/[=[]/.test(body[0]!)) return versionWordOffence(body[0]!)?.replace(/^a version/, 'a toolchain');
  let document: unknown;
  try {
    document = parseToml(text);
  } catch {
    return 'text that does not parse as TOML (rustup may read it otherwise)';
  }
  const found = firstOffence(tomlStrings(document), (value) => versionWordOffence(value));
  return found?.replace(/^a version/, 'a toolchain value');
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
  // Where packages come from and how they travel: a registry or proxy of the project's choosing
  // gets the user's token and may serve its own packages (to `yarn dlx` too); a CA or disabled
  // TLS checks let a proxy read the traffic. The public registry, spelled out, passes.
  for (const [, key, value] of text.matchAll(/["']?\b(npmRegistryServer|npmPublishRegistry|https?Proxy|enableStrictSsl|(?:https)?CaFilePath|unsafeHttpWhitelist)\b["']?\s*:\s*(.*)$/gim)) {
    const bare = unquote(value!.trim());
    if (/registry/i.test(key!) && DEFAULT_REGISTRY.test(bare)) continue;
    if (/^enableStrictSsl$/i.test(key!) && /^true$/i.test(bare)) continue;
    return `a \`${key}\` setting (yarn would fetch packages, and send your token, as it says)`;
  }
  return undefined;
}

/**
 * npm's settings that name a program npm (or pnpm, or node-gyp) runs, or a file it loads, even
 * with `--ignore-scripts`: `git=` (run for git dependencies), `script-shell`, `shell`,
 * `node-options` (`--require`), `editor`, `browser`, `viewer`, `init-module`, `onload-script`,
 * `node-gyp`, `python` (node-gyp's), `npm-path` and `pnpmfile` (pnpm's), `userconfig` and
 * `globalconfig` (more settings from a file of any name), and any key ending the same way; and
 * a `registry` other than the public one: pnpm fetches and runs the release `packageManager`
 * names from it at any pnpm command there, `--ignore-scripts` or not (a scope's registry serves
 * only that scope's packages, which are the project's dependencies: it passes).
 */
const NPM_PROGRAM_KEYS = new Set(['git', 'shell', 'editor', 'browser', 'viewer', 'node-gyp', 'python', 'userconfig', 'globalconfig', 'pnpmfile', 'global-pnpmfile', 'use-yarnrc', 'yarn-path', 'yarnpath']);
/** The public registries npm, pnpm and Yarn use by default. */
const DEFAULT_REGISTRY = /^https:\/\/registry\.(?:npmjs\.org|yarnpkg\.com)\/?$/;
const NPM_PROGRAM_SUFFIX = /[-.](?:shell|path|script|options|module|cmd|command|pnpmfile)$/;
/** npm's settings for how requests travel: proxies, TLS checks, certificate authorities. */
const NPM_TRANSPORT_KEYS = new Set(['proxy', 'https-proxy', 'http-proxy', 'strict-ssl', 'ca', 'cafile']);
/** The value of a `key=value` (or Yarn 1's `key value`) line, unquoted. */
const valueOf = (line: string): string => unquote(line.replace(/^\s*\S*?["']?\s*(?:=|:|\s)\s*/, '').trim());
const NPM_PLACE_KEYS = /^(?:--)?(?:.*[-.])?(?:dir|folder)$|^(?:prefix|cache|tmp)$/;

/**
 * npm's envReplace, which npm's config applies to every key before reading it (`git${X?}` is
 * `git`): `${NAME}` and `${NAME?}` are the variable's value, `\\${…}` is the text. Every variable
 * is taken as empty here; a key that still holds `${` (an unset one keeps its text) counts.
 */
const ENV_EXPRESSION = /(?<!\\)(\\*)\$\{([^${}?]+)(\?)?\}/g;
const npmEnvReplace = (key: string): string =>
  key.replace(ENV_EXPRESSION, (whole: string, escapes: string) => (escapes.length % 2 === 1 ? whole.slice((escapes.length + 1) / 2) : escapes.slice(escapes.length / 2)));

/**
 * The key of a line as npm's ini reads it (all up to `=`, trimmed; a quoted key unquoted), as a
 * `key value` line of `.yarnrc` has it (up to a space or `=`; `--` dropped by Yarn 1) and as Yarn 1's
 * parser does (a JSON string, or a word that ends at a space, a `:` or a `,`: `yarn-path: "./x.js"`).
 * Every reading is judged, in either file: each tool reads the other's file too.
 */
function lineKeys(line: string): string[] {
  const bare = line.replace(/^--/, '');
  const ini = line.split('=')[0]!.trim();
  // npm's ini ends an unquoted key at `;` or `#` (`git#x=…` sets git: a red team's).
  const cut = /^(?:"[^"]*"|'[^']*')/.test(ini) ? ini : ini.replace(/[;#].*$/, '').trim();
  const word = /^(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^=\s]+)/.exec(bare)?.[0] ?? bare;
  const yarn = /^(?:"(?:[^"\\]|\\.)*"|[^:\s,]+)/.exec(bare)?.[0] ?? bare;
  return [ini, cut, word, yarn];
}

/**
 * `.npmrc` (npm, pnpm, Yarn 1) and Yarn 1's `.yarnrc` (`yarn-path`, and the npm settings it
 * shares). A quoted key is unquoted (npm's ini reads `"g\\u0069t"` as `git`, so an escape
 * counts), `key[]` is the key, `_` is `-`, variables are replaced as npm does.
 */
export function judgeNpmrc(text: string): string | undefined {
  for (const line of lines(text, /^\s*[#;].*$/)) {
    if (line.startsWith('[')) continue; // an INI section: npm reads none of its keys
    for (const raw of lineKeys(line)) {
      if (raw.includes('\\')) return `a key spelled with an escape (${raw})`;
      const key = npmEnvReplace(unquote(raw)).replace(/\[\]$/, '').replace(/_/g, '-').toLowerCase();
      if (key.includes('${')) return `a key naming a variable (${raw})`;
      const name = key.replace(/^(?:@[^:]+:|\/\/.*:)/, '');
      if (NPM_PROGRAM_KEYS.has(name) || NPM_PROGRAM_SUFFIX.test(name)) return `a \`${key}\` setting`;
      // Where packages go (`modules-dir`, Yarn 1's `--modules-folder`, `prefix`…): an install writes there, outside the project too (a red team's).
      if (NPM_PLACE_KEYS.test(name)) return `a \`${key}\` setting (an install writes where it says)`;
      // pnpm's `node-mirror:<channel>`: where the Node `use-node-version` names is downloaded from.
      if (name.startsWith('node-mirror')) return `a Node download mirror (${raw})`;
      if (key === 'registry' && !DEFAULT_REGISTRY.test(unquote(line.replace(/^\S*?registry["']?\s*[=:\s]\s*/i, '').trim()))) return `a registry other than the public one (${raw})`;
      // How downloads travel: a proxy of the project's choosing sees every request (with TLS
      // checks off or its own CA, the user's token and the packages too).
      if (NPM_TRANSPORT_KEYS.has(name) && !(name === 'strict-ssl' && /^\s*true\s*$/i.test(valueOf(line)))) return `a \`${key}\` setting (npm would fetch packages, and send your token, as it says)`;
    }
  }
  return undefined;
}

/**
 * pnpm's `pnpm-workspace.yaml`, where pnpm 10 reads its settings: the same programs as `.npmrc`
 * (camelCase, or kebab-case or snake_case as in `.npmrc`: pnpm turns every key into one spelling),
 * `configDependencies` (packages whose pnpmfiles pnpm loads first), and where an install writes
 * (`modulesDir`, `virtualStoreDir`, `globalBinDir`…: outside the project too).
 */
export function judgePnpmWorkspace(text: string): string | undefined {
  const joined = text.replace(/(?<=\w)[-_](?=\w)/g, '');
  const found = /scriptshell|nodeoptions|pnpmfile|npmpath|configdependencies|(?<![\w-])shell(?![\w-])|(?:^|[\s{,])["']?[a-z]*dir["']?\s*:/im.exec(joined);
  if (found) return `a \`${found[0].replace(/^[\s{,"']+|["'\s:]+$/g, '')}\` setting`;
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  // The same transport settings as `.npmrc` (a registry of the project's choosing, proxies, TLS checks, CAs).
  for (const [, key, value] of joined.matchAll(/(?:^|[\s{,])["']?(registry|httpsproxy|httpproxy|proxy|strictssl|cafile|ca)["']?\s*:\s*([^,}\n]*)/gim)) {
    const bare = unquote(value!.trim());
    if (/^registry$/i.test(key!) && DEFAULT_REGISTRY.test(bare)) continue;
    if (/^strictssl$/i.test(key!) && /^true$/i.test(bare)) continue;
    return `a \`${key}\` setting (pnpm would fetch packages, and send your token, as it says)`;
  }
  return undefined;
}

/** .NET's `global.json`: `sdk.paths` (.NET 10) makes every `dotnet` run an SDK from a folder it names. */
export function judgeGlobalJson(text: string): string | undefined {
  if (/paths/i.test(text)) return 'an SDK `paths` list';
  if (text.includes('\\u')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/**
 * A `-D` property that names no program, class or path: a value of plain words (no `/`, `\\`,
 * `~`, `$`, `:`, `@` or quote) that is not a dotted class name, under a name that does not take a
 * path or a class (`maven.ext.class.path=lib` names a jar without a slash).
 */
const JVM_PROPERTY = /^-D([\w.-]+)(?:=([\w.,+-]*))?$/;
const PROPERTY_NAMING_CODE = /path|class|loader|agent|jar|(?:^|\.)ext(?:\.|$)|dir|home|lib|conf|security|policy|propert|plugin|factory|provider|manager|script|exec|command|cmd|tool|module|file(?!\.encoding$)/i;
const CLASS_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const harmlessProperty = (option: string): boolean => {
  const match = JVM_PROPERTY.exec(option);
  return match !== null && !PROPERTY_NAMING_CODE.test(match[1]!) && !CLASS_NAME.test(match[2] ?? '');
};

/** The options of `.mvn/jvm.config` that name no program, class or path; every other one counts. */
const JVM_HARMLESS = [
  /^-X(?:mx|ms|ss|mn)\d+[kmgt]?$/i,
  /^-XX:[+-]\w+$/,
  /^-XX:\w+=\d+(?:\.\d+)?[kmgt%]?$/i,
  /^-X(?:int|mixed|comp|rs|batch|noclassgc|share:(?:auto|on|off))$/,
  /^-(?:server|client|ea|da|esa|dsa|enableassertions|disableassertions|enable-preview)$/,
  /^-verbose:(?:gc|class|jni)$/,
  /^--(?:enable-native-access=ALL-UNNAMED|illegal-access=(?:permit|warn|debug|deny)|sun-misc-unsafe-memory-access=(?:allow|warn|debug|deny))$/,
];
const MODULE_OPTION = /^--add-(?:opens|exports|reads)$/;
const MODULE_VALUE = /^[\w.]+(?:\/[\w.]+)?=[\w.,-]+$/;

/**
 * Words as Maven's launcher and Gradle split options: at ASCII space and tab. A `#` starts a
 * comment only where a word starts: inside one (`-Dx=a#b`) Maven 3.8's launcher and Gradle keep
 * it, so the word is judged whole (and the rest of the line with it). (Red teams'.)
 */
const optionWords = (text: string): string[] =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/(?:^|[ \t])#.*$/, ''))
    .flatMap((line) => line.split(/[ \t]+/))
    .filter((word) => word !== '');

/** A character the launchers may split or read otherwise than this does (JavaScript's `\s` holds U+00A0, U+2028, `\v`…): counted. */
const unusualCharacter = (text: string): string | undefined => {
  const found = /[^\t\n\r\x20-\x7e]/.exec(text);
  return found ? `a character the launcher may read otherwise (U+${found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})` : undefined;
};

/**
 * Maven's `.mvn/jvm.config`: options for the JVM every `mvn` in the folder starts (`mvn -v`
 * included). An allow-list: memory and stack sizes, `-XX:` flags and numbers, `--add-opens` and
 * its kin, and `-D` properties with plain values. Everything else counts: an agent, a boot
 * class path, an options file (`-XX:VMOptionsFile=`, `-XX:Flags=`, `@file`), a program run on
 * an error, a property naming a path or a class, an option the JVM adds later.
 */
export function judgeJvmConfig(text: string): string | undefined {
  const unusual = unusualCharacter(text);
  if (unusual !== undefined) return unusual;
  const words = optionWords(text);
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const [option, value] = word.includes('=') && MODULE_OPTION.test(word.split('=')[0]!) ? [word.split('=')[0]!, word.slice(word.indexOf('=') + 1)] : [word, undefined];
    if (MODULE_OPTION.test(option)) {
      const target = value ?? words[++index] ?? '';
      if (!MODULE_VALUE.test(target)) return `a JVM option this does not know to be harmless (${option} ${target})`;
      continue;
    }
    if (!JVM_HARMLESS.some((pattern) => pattern.test(word)) && !harmlessProperty(word)) return `a JVM option this does not know to be harmless (${word})`;
  }
  return undefined;
}

/**
 * Maven's `.mvn/maven.config`: arguments of every `mvn` in the folder. An allow-list of flags
 * that name no file (`-Dmaven.ext.class.path=`, `-s`, `-gs`, `-t`, `-f` and any option Maven
 * adds later count), `-D` properties as in `jvm.config`, and profile and thread counts.
 */
const MAVEN_HARMLESS = /^(?:-[BeXqUoVCcN]|--batch-mode|--errors|--debug|--quiet|--update-snapshots|--offline|--show-version|--strict-checksums|--lax-checksums|-ntp|--no-transfer-progress|-nsu|--no-snapshot-updates|-fae|--fail-at-end|-ff|--fail-fast|-fn|--fail-never|-am|--also-make|-amd|--also-make-dependents|--color=(?:auto|always|never)|-T\d+(?:\.\d+)?C?|-P[\w,.!-]+)$/;
const MAVEN_WITH_VALUE: Record<string, RegExp> = { '-T': /^\d+(?:\.\d+)?C?$/, '--threads': /^\d+(?:\.\d+)?C?$/, '-P': /^[\w,.!-]+$/, '--activate-profiles': /^[\w,.!-]+$/, '--color': /^(?:auto|always|never)$/ };

export function judgeMavenConfig(text: string): string | undefined {
  const unusual = unusualCharacter(text);
  if (unusual !== undefined) return unusual;
  const words = optionWords(text);
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    const valuePattern = MAVEN_WITH_VALUE[word];
    if (valuePattern) {
      const value = words[++index] ?? '';
      if (!valuePattern.test(value)) return `a Maven argument this does not know to be harmless (${word} ${value})`;
      continue;
    }
    if (!MAVEN_HARMLESS.test(word) && !harmlessProperty(word)) return `a Maven argument this does not know to be harmless (${word})`;
  }
  return undefined;
}

/**
 * Maven's `.mvn/extensions.xml`: core extensions, fetched and loaded by every `mvn` in the folder
 * (`mvn -v` included). Any extension counts; so does a document type or an entity (one may
 * expand to an extension).
 */
export function judgeMavenExtensions(text: string): string | undefined {
  const found = /<extension\b|<!DOCTYPE|<!ENTITY|&/i.exec(text);
  if (found) return `a core extension (${found[0]})`;
  return undefined;
}

/**
 * Cargo's configuration (`.cargo/config.toml`, `.cargo/config`, read in the folder and each folder
 * above it): the programs cargo runs — `build.rustc`, `rustc-wrapper`, `rustc-workspace-wrapper`,
 * `rustdoc`, a target's `runner` or `linker` (also as `-C linker=` in `rustflags`), a registry's
 * `credential-provider`, `credential-alias` — `[env]` (RUSTC_WRAPPER…) and `include` (another
 * file, of any name, read as this one: what it names is not seen here). `cargo metadata`, which
 * an editor's rust-analyzer runs when the folder opens, starts the rustc they name (a bare name
 * too: a wrapper `python3` runs the project's `rustc` file). A quoted key may be spelled with
 * escapes: a backslash counts. An `alias` counts too: one named as an installed subcommand
 * (`fmt`, `clippy`) runs instead of it.
 */
export function judgeCargoConfig(text: string): string | undefined {
  // `[alias]`: a project's alias shadows an installed subcommand (`fmt = "run --manifest-path …"`: `cargo fmt` runs project code; a red team's).
  const found = /rustc|rustdoc|runner|linker|credential|wrapper|include|browser|\benv\b|\balias\b/i.exec(text);
  if (found) return `a \`${found[0]}\` setting`;
  // `rustflags` that load or run code (`-Zcodegen-backend=<.so>`, `-Z llvm-plugins`, `-C link-arg=-fuse-ld=<path>`, an `@argfile`); `--cfg` and the like pass.
  const flag = /codegen-backend|llvm-plugins|link-args?|\bplugin|extern|(?:^|["'\s,[])@/im.exec(text);
  if (flag) return `a flag that loads or runs code (${flag[0].trim()})`;
  // Where crates come from and how they travel: a replaced source, another registry's index, a
  // proxy or TLS setting (`[http]`).
  const source = /replace-with|\bregistries\b|\bproxy\b|cainfo|check-revoke|ssl-version/i.exec(text);
  if (source) return `a \`${source[0]}\` setting (cargo would fetch crates as it says)`;
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/**
 * pip's configuration (`pip.conf`, `pip.ini`: a virtual environment's own is read whenever it is
 * active) and uv's (`uv.toml`): where packages come from and how they travel. An index or link page
 * of the project's choosing serves its own packages, whose build runs on the next install; a
 * trusted host, proxy or CA lets another read the traffic; a folder setting makes an install write
 * elsewhere. Any such key counts, as does an escape.
 */
export function judgePythonIndexConfig(text: string): string | undefined {
  const found = /index(?:[-_]url)?|find[-_]links|trusted[-_]host|allow[-_]insecure[-_]host|proxy|\bcert\b|client[-_]cert|native[-_]tls|keyring|\bconfig[-_]settings\b|python[-_]install[-_]mirror|python[-_]downloads/i.exec(text);
  if (found) return `a \`${found[0]}\` setting (the next install would fetch packages as it says)`;
  // Where an install or its cache writes (`cache-dir`, `target`, `prefix`…): outside the project too.
  const place = /[\w-]*[-_]dir\b|\btarget\b|\bprefix\b|\broot\b|\bsrc\b/i.exec(text);
  if (place) return `a \`${place[0]}\` setting (an install writes where it says)`;
  if (text.includes('\\')) return 'an escape sequence (a key spelled with one is read as another)';
  return undefined;
}

/**
 * A Mercurial repository's own configuration (`.hg/hgrc`): `[hooks]` run at `hg status` and the
 * rest, `[extensions]` load Python from a path, `%include` reads another file; editors, pagers,
 * merge and diff tools, ssh and `!` aliases are programs. Anything of those counts.
 */
export function judgeHgrc(text: string): string | undefined {
  const found = /hooks|extensions|%include|editor|pager|merge|extdiff|diff-tools|ssh|!|\\/i.exec(text);
  return found ? `a \`${found[0]}\` setting` : undefined;
}

/**
 * Jujutsu's repository configuration in older releases (`.jj/repo/config.toml`): pagers, editors,
 * diff and merge tools, `fix.tools` commands, signing programs and `util exec` aliases.
 */
export function judgeJjRepoConfig(text: string): string | undefined {
  const found = /pager|editor|merge|tool|command|program|exec|backend|\\/i.exec(text);
  return found ? `a \`${found[0]}\` setting` : undefined;
}

const PROPERTY_ESCAPES: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/** A properties text's escapes resolved as Java's Properties.load does; undefined for a malformed `\u` (Java refuses the file). */
function unescapeProperty(text: string): string | undefined {
  if (/\\u(?![0-9a-fA-F]{4})/.test(text.replace(/\\\\/g, ''))) return undefined;
  return text.replace(/\\(u[0-9a-fA-F]{4}|[\s\S])/g, (_, escape: string) => (escape.length === 5 ? String.fromCharCode(Number.parseInt(escape.slice(1), 16)) : (PROPERTY_ESCAPES[escape] ?? escape)));
}

/**
 * The entries of a Java properties file as Properties.load reads them: comments (`#`, `!`) and
 * blank lines skipped, a line ending in an odd number of backslashes continued on the next, the
 * key ending at the first unescaped `=`, `:` or white space, escapes (`\:`, `\u0061`) resolved.
 * Undefined when Java would refuse it.
 */
function propertyEntries(text: string): { key: string; value: string }[] | undefined {
  const logical: string[] = [];
  let pending: string | undefined;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/^[ \t\f]+/, ''); // a continued line's leading white space goes too
    if (pending === undefined && (line === '' || line.startsWith('#') || line.startsWith('!'))) continue;
    const continued = (/\\+$/.exec(line)?.[0].length ?? 0) % 2 === 1;
    const joined = (pending ?? '') + (continued ? line.slice(0, -1) : line);
    if (continued) pending = joined;
    else {
      logical.push(joined);
      pending = undefined;
    }
  }
  if (pending !== undefined) logical.push(pending);
  const entries: { key: string; value: string }[] = [];
  for (const line of logical) {
    let end = 0;
    while (end < line.length && !'=: \t\f'.includes(line[end]!)) end += line[end] === '\\' ? 2 : 1;
    const rest = line.slice(end).replace(/^[ \t\f]*(?:[=:][ \t\f]*)?/, '');
    const key = unescapeProperty(line.slice(0, end));
    const value = unescapeProperty(rest);
    if (key === undefined || value === undefined) return undefined;
    entries.push({ key, value });
  }
  return entries;
}

/**
 * Gradle's `gradle.properties`: `org.gradle.jvmargs` are the options of the daemon every Gradle
 * build there starts (an IDE's Gradle sync included, when the folder opens), judged as Maven's
 * `jvm.config` is; `org.gradle.java.home` and `org.gradle.java.installations.*` pick the JDK whose
 * java runs it. Keys and values are read as Java reads them (escapes resolved, lines continued).
 */
export function judgeGradleProperties(text: string): string | undefined {
  const entries = propertyEntries(text);
  if (entries === undefined) return 'a malformed \\u escape (Gradle may read the file otherwise)';
  for (const { key, value } of entries) {
    const lower = key.toLowerCase();
    if (lower.startsWith('org.gradle.java.')) return `a \`${key}\` setting (the JDK that runs Gradle)`;
    if (lower === 'org.gradle.jvmargs') {
      // Gradle has no comment inside a value: a `#` there is judged as a word, never a comment.
      if (value.includes('#')) return `a \`#\` in org.gradle.jvmargs (Gradle passes what follows it on)`;
      const offence = judgeJvmConfig(value);
      if (offence !== undefined) return offence;
    }
  }
  return undefined;
}

/** Where the Maven wrapper takes Maven and its own jar from by default (Maven Central). */
const MAVEN_CENTRAL = /^https:\/\/repo\.maven\.apache\.org\/maven2\/[^?#\s]+$/;

/** `url` under `site` (a pattern anchored at its start), with no parent step leading out of it. */
const fromSite = (site: RegExp, url: string): boolean => site.test(url) && !/\/\.\.(?:[/?#\\]|$)/.test(url);

/**
 * The Maven wrapper's `.mvn/wrapper/maven-wrapper.properties`: `distributionUrl` is the Maven that
 * `./mvnw` and an IDE's Maven import (set to use the wrapper) download and run, `wrapperUrl` the
 * wrapper jar it runs. From Maven Central they pass; any other place or a local path counts.
 */
export function judgeMavenWrapperProperties(text: string): string | undefined {
  const entries = propertyEntries(text);
  if (entries === undefined) return 'a malformed \\u escape (the wrapper may read the file otherwise)';
  for (const { key, value } of entries) {
    if (/^(?:distributionurl|wrapperurl)$/i.test(key) && !fromSite(MAVEN_CENTRAL, value)) return `a download from elsewhere than Maven Central (${value})`;
    const place = wrapperPlaceOffence(key, value, MAVEN_WRAPPER_KEYS);
    if (place !== undefined) return place;
  }
  return undefined;
}

/**
 * Where a wrapper keeps what it downloaded: `distributionBase`/`zipStoreBase` other than the
 * user's home (`PROJECT`: a distribution planted in the project, marked as downloaded, runs while
 * `distributionUrl` stays the official one; a red team's), a `…Path` that is not a plain relative
 * folder, and a key the wrapper may read that is not known to be harmless.
 */
const GRADLE_WRAPPER_KEYS = new Set(['distributionurl', 'distributionsha256sum', 'networktimeout', 'validatedistributionurl']);
const MAVEN_WRAPPER_KEYS = new Set(['distributionurl', 'wrapperurl', 'wrapperversion', 'distributiontype', 'distributionsha256sum', 'wrappersha256sum', 'alwaysdownload', 'alwaysunpack']);
function wrapperPlaceOffence(key: string, value: string, known: ReadonlySet<string>): string | undefined {
  const lower = key.toLowerCase();
  if (known.has(lower)) return undefined;
  if (lower === 'distributionbase' || lower === 'zipstorebase') return /^(?:GRADLE|MAVEN)_USER_HOME$/.test(value.trim()) ? undefined : `a \`${key}\` of ${value} (the wrapper would run a distribution kept there)`;
  if (lower === 'distributionpath' || lower === 'zipstorepath') return /^[\w.-]+(?:\/[\w.-]+)*$/.test(value.trim()) && !/(?:^|\/)\.\.?(?:\/|$)/.test(value.trim()) ? undefined : `a \`${key}\` of ${value}`;
  return `a \`${key}\` setting the wrapper may read`;
}

/** Where Gradle's `updateDaemonJvm` points the daemon's JDK downloads (the Foojay service). */
const FOOJAY = /^https:\/\/api\.foojay\.io\/\S+$/;

/**
 * Gradle's `gradle/gradle-daemon-jvm.properties`: the JDK the daemon runs on, downloaded from a
 * `toolchainUrl.*` by every build and an IDE's Gradle sync. The Foojay URLs Gradle writes pass.
 */
export function judgeGradleDaemonJvmProperties(text: string): string | undefined {
  const entries = propertyEntries(text);
  if (entries === undefined) return 'a malformed \\u escape (Gradle may read the file otherwise)';
  for (const { key, value } of entries) {
    if (/^toolchainurl\./i.test(key) && !fromSite(FOOJAY, value)) return `a JDK downloaded from elsewhere than Gradle's default (${value})`;
  }
  return undefined;
}

/** Where the Gradle wrapper takes Gradle from by default; another place (a mirror included) counts. */
const GRADLE_DISTRIBUTIONS = /^https:\/\/services\.gradle\.org\/distributions\/gradle-[\w.-]+-(?:bin|all)\.zip$/;

/**
 * The Gradle wrapper's `gradle/wrapper/gradle-wrapper.properties`: `distributionUrl` is the Gradle
 * that `./gradlew` and an IDE's Gradle sync download and run. A version bump on Gradle's own site
 * passes (`https\://` as the wrapper writes it); any other place or a local path counts.
 */
export function judgeGradleWrapperProperties(text: string): string | undefined {
  const entries = propertyEntries(text);
  if (entries === undefined) return 'a malformed \\u escape (the wrapper may read the file otherwise)';
  for (const { key, value } of entries) {
    if (key.toLowerCase() === 'distributionurl' && !GRADLE_DISTRIBUTIONS.test(value)) return `a Gradle distribution from elsewhere than Gradle's own site (${value})`;
    const place = wrapperPlaceOffence(key, value, GRADLE_WRAPPER_KEYS);
    if (place !== undefined) return place;
  }
  return undefined;
}
