/**
 * Versions as the toolchain files give them (host-tool-files.ts, kind `toolchain`), and the judges
 * of the files that hold nothing else: `.tool-versions`, a tool's own version file, SDKMAN!'s
 * `.sdkmanrc`. Version managers join a version to their versions folder, so a version counts when
 * it could lead out of it; real versions hold no path.
 */

/** A value that is a path: absolute, home-relative or `./`, `../` (a bare name is a version). */
const PATH_VALUE = /^(?:\/|~|\.\.?(?:\/|$))/;

/** mise's template syntax (Tera): `{{ exec(command="…") }}` runs a command wherever it is evaluated. */
export const TEMPLATE = /\{\{|\{%/;

/**
 * What no version holds anywhere: a backslash, a parent step, a control character (below a space,
 * DEL, U+0080–U+009F). Version managers join the version to their versions folder
 * (`~/.jenv/versions/<v>`, `candidates/java/<v>`), so `21/../../../project/.jdk` is the project's
 * folder whatever comes first.
 */
export const NEVER_IN_A_VERSION = /\\|\.\.|[\x00-\x1f\x7f-\x9f]/;

/** The slash forms the tools themselves give, each with no parent step (checked apart). */
const SLASH_FORMS = {
  /** nvm and fnm aliases: `lts/*`, `lts/-1`, `lts/hydrogen`. */
  nodeLts: /^lts\/(?:\*|-\d+|[a-z][\w-]*)$/i,
  /** pyenv-virtualenv: an environment of an installed version, `3.12.1/envs/web`. */
  pyenvEnv: /^[\w.+-]+\/envs\/[\w.+-]+$/,
  /** asdf and mise build from a git ref: `ref:release/1.x`. */
  gitRef: /^ref:[\w.+-]+(?:\/[\w.+-]+)*$/,
};

/**
 * Why a version word names a path or a program, or undefined for a version: a path (absolute,
 * `~`, `./`), a template, or anywhere in it a backslash, `..` or a control character, or a `/`
 * outside the slash forms `slashForms` allows for this tool.
 */
export function versionWordOffence(word: string, slashForms: readonly RegExp[] = []): string | undefined {
  if (/^path:/i.test(word)) return 'a version given as `path:`';
  if (PATH_VALUE.test(word) || NEVER_IN_A_VERSION.test(word) || (word.includes('/') && !slashForms.some((form) => form.test(word)))) return `a version given as a path (${shown(word)})`;
  if (TEMPLATE.test(word)) return `a version given as a template (${shown(word)})`;
  return undefined;
}

/** A word for a message: control characters shown as escapes (the message reaches a terminal). */
export const shown = (word: string): string => word.replace(/[\x00-\x1f\x7f-\x9f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** What asdf and mise take with a slash: a git ref to build, nvm's LTS names (read from `.nvmrc`). */
export const MANAGER_SLASH_FORMS = [SLASH_FORMS.gitRef, SLASH_FORMS.nodeLts];

export const firstOffence = <T>(items: Iterable<T>, offence: (item: T) => string | undefined): string | undefined => {
  for (const item of items) {
    const found = offence(item);
    if (found !== undefined) return found;
  }
  return undefined;
};

/**
 * A tool's name where a version file names one (`.tool-versions`, mise's `[tools]`): a plugin
 * folder to asdf (`plugins/<name>`, whose scripts it runs), so a parent step, a backslash, a
 * control character or a leading `/`, `~` counts. mise's backends keep their slashes
 * (`ubi:owner/repo`, `npm:@scope/pkg`).
 */
/**
 * A tool taken from a place the project names rather than a registry: a URL, a git remote, a
 * file (`http:x` with a `url`, `asdf:https://…`, `git@…`, `file:`): mise installs from there at
 * `mise install`, `mise exec` and `mise run`, and puts its `bin` first on PATH (a red team's).
 */
export function remoteSource(text: string): string | undefined {
  const found = /:\/\/|git@|\bfile:|(?:^|["'\s])https?:|\burl\b|_url\b/i.exec(text);
  return found ? `a tool taken from a place the project names (${found[0].trim()})` : undefined;
}

export function toolNameOffence(name: string): string | undefined {
  return NEVER_IN_A_VERSION.test(name) || /^[/~]/.test(name) || TEMPLATE.test(name) ? `a tool name given as a path (${shown(name)})` : undefined;
}

/**
 * `.tool-versions` (asdf, mise): `<tool> <version>…` per line. mise and asdf take `path:<dir>` as
 * a version and put `<dir>/bin` first on PATH when the folder is entered (no trust asked); a
 * version with a parent step in it (`21/../../../project/x`) does as much through the installs
 * folder, and a tool name with one through asdf's plugins folder. A `ref:` may hold slashes.
 */
export function judgeToolVersions(text: string): string | undefined {
  if (/path:/i.test(text)) return 'a tool version given as `path:`';
  // mise renders the whole file as a template before it drops comments: one in a comment runs too (a red team's).
  if (TEMPLATE.test(text)) return 'a template (mise runs the commands a template names)';
  const source = remoteSource(wordLines(text).flat().join('\n'));
  if (source !== undefined) return source;
  const control = controlOffence(text);
  if (control !== undefined) return control;
  for (const [tool = '', ...versions] of wordLines(text)) {
    const found = toolNameOffence(tool) ?? firstOffence(versions, (version) => versionWordOffence(version, MANAGER_SLASH_FORMS));
    if (found !== undefined) return found.replace(/^a version/, 'a tool version');
  }
  return undefined;
}

/**
 * The words of each line, a comment dropped where a word starts with `#` (as asdf, mise, nvm and
 * pyenv read them). A `#` inside a word stays: jenv and others read no comments, and the word must
 * pass as a version whole.
 */
export const wordLines = (text: string): string[][] =>
  text
    .split(/\r?\n|\r/)
    .map((line) => line.replace(/(?:^|\s)#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));

/**
 * A control character other than a tab or a line's end, anywhere (a comment included): a tool may
 * split lines or words where this judge does not (a lone `\r`, a vertical tab).
 */
export function controlOffence(text: string): string | undefined {
  const found = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(text.replace(/\r\n/g, '\n'));
  return found ? `a control character (${shown(found[0])})` : undefined;
}

/**
 * A one-tool version file (`.nvmrc`, `.java-version`, `.python-version`…): the tool's own version
 * manager joins it to its versions folder (jenv, pyenv, rbenv, goenv, nodenv, tfenv), and mise
 * reads it as `.tool-versions` (`path:` included). Every word is a version; `slashForms` are the
 * slash forms this tool gives (`lts/iron` for Node), none with a parent step.
 */
export function judgeVersionFile(text: string, slashForms: readonly RegExp[] = []): string | undefined {
  if (/path:/i.test(text)) return 'a version given as `path:`';
  if (TEMPLATE.test(text)) return 'a template (mise reads this file as `.tool-versions`, templates and all)';
  const control = controlOffence(text);
  if (control !== undefined) return control;
  for (const word of wordLines(text).flat()) {
    const found = versionWordOffence(word, slashForms);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** `.nvmrc`, `.node-version`: nvm's and fnm's `lts/<name>` aliases are versions. */
export const judgeNodeVersionFile = (text: string): string | undefined => judgeVersionFile(text, [SLASH_FORMS.nodeLts]);

/** `.python-version`: pyenv-virtualenv's `<version>/envs/<name>` is a version. */
export const judgePythonVersionFile = (text: string): string | undefined => judgeVersionFile(text, [SLASH_FORMS.pyenvEnv]);

/**
 * SDKMAN!'s `.sdkmanrc` (`java=21.0.2-tem`, applied at `cd` with `sdkman_auto_env`): SDKMAN!
 * drops a `#` and all after it and every space, then puts `candidates/<candidate>/<version>/bin`
 * first on PATH; it splits at the last `=` for the candidate and at the first for the version,
 * so the whole line must be one lower-case candidate, one `=` and one plain version.
 */
export function judgeSdkmanrc(text: string): string | undefined {
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').replace(/\s+/g, '');
    if (line === '') continue;
    const match = /^([a-z]+)=([^=]+)$/.exec(line);
    if (!match) return `a line that is not one candidate and one version (${shown(line)})`;
    const found = versionWordOffence(match[2]!);
    if (found !== undefined) return found;
  }
  return undefined;
}
