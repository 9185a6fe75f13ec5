/**
 * grep's `type` field (Claude Code's, ripgrep's `--type`): a name for a set of file-name globs.
 * With `rg` on PATH the names and globs are ripgrep's own (`rg --type-list`, read once per rg),
 * so `type` means what `rg --type` means; without it, this table of common types (copied from
 * ripgrep 13's list) is used. Either way both engines filter with the same globs, so their
 * results stay identical. An unknown name is an input error naming it.
 */
import { spawnSync } from 'node:child_process';
import { compilePathGlob } from '../../sdk/search-common/path-glob.js';

const BUILT_IN: Readonly<Record<string, readonly string[]>> = Object.freeze({
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  clojure: ['*.clj', '*.cljc', '*.cljs', '*.cljx'],
  cmake: ['*.cmake', 'CMakeLists.txt'],
  config: ['*.cfg', '*.conf', '*.config', '*.ini'],
  cpp: ['*.[ChH]', '*.[ChH].in', '*.[ch]pp', '*.[ch]pp.in', '*.[ch]xx', '*.[ch]xx.in', '*.cc', '*.cc.in', '*.hh', '*.hh.in', '*.inl'],
  cs: ['*.cs'],
  csharp: ['*.cs'],
  css: ['*.css', '*.scss'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.eex', '*.ex', '*.exs'],
  erlang: ['*.erl', '*.hrl'],
  go: ['*.go'],
  haskell: ['*.c2hs', '*.cpphs', '*.hs', '*.hsc', '*.lhs'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.js', '*.jsx', '*.vue'],
  json: ['*.json', 'composer.lock'],
  jupyter: ['*.ipynb', '*.jpynb'],
  kotlin: ['*.kt', '*.kts'],
  less: ['*.less'],
  lua: ['*.lua'],
  make: ['*.mak', '*.mk', '[Gg][Nn][Uu]makefile', '[Gg][Nn][Uu]makefile.am', '[Gg][Nn][Uu]makefile.in', '[Mm]akefile', '[Mm]akefile.am', '[Mm]akefile.in'],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mkdn'],
  objc: ['*.h', '*.m'],
  ocaml: ['*.ml', '*.mli', '*.mll', '*.mly'],
  perl: ['*.PL', '*.perl', '*.pl', '*.plh', '*.plx', '*.pm', '*.t'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.phtml'],
  protobuf: ['*.proto'],
  py: ['*.py'],
  r: ['*.R', '*.Rmd', '*.Rnw', '*.r'],
  ruby: ['*.gemspec', '*.rb', '*.rbw', '.irbrc', 'Gemfile', 'Rakefile', 'config.ru'],
  rust: ['*.rs'],
  sass: ['*.sass', '*.scss'],
  scala: ['*.sbt', '*.scala'],
  sh: ['*.bash', '*.bashrc', '*.csh', '*.cshrc', '*.ksh', '*.kshrc', '*.sh', '*.tcsh', '*.zsh', '.bash_login', '.bash_logout', '.bash_profile', '.bashrc', '.cshrc', '.kshrc', '.login', '.logout', '.profile', '.tcshrc', '.zlogin', '.zlogout', '.zprofile', '.zshenv', '.zshrc', 'bash_login', 'bash_logout', 'bash_profile', 'bashrc', 'profile', 'zlogin', 'zlogout', 'zprofile', 'zshenv', 'zshrc'],
  sql: ['*.psql', '*.sql'],
  swift: ['*.swift'],
  tf: ['*.tf'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.ts', '*.tsx'],
  txt: ['*.txt'],
  xml: ['*.dtd', '*.rng', '*.sch', '*.xhtml', '*.xjb', '*.xml', '*.xml.dist', '*.xsd', '*.xsl', '*.xslt'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
});

const fromRipgrep = new Map<string, Readonly<Record<string, readonly string[]>> | undefined>();

/** `rg --type-list` parsed (`name: glob, glob`); undefined when it cannot be run. */
function ripgrepTypes(rgPath: string): Readonly<Record<string, readonly string[]>> | undefined {
  if (fromRipgrep.has(rgPath)) return fromRipgrep.get(rgPath);
  let table: Record<string, string[]> | undefined;
  const result = spawnSync(rgPath, ['--no-config', '--type-list'], { encoding: 'utf8', timeout: 5000 });
  if (result.status === 0) {
    table = {};
    for (const line of result.stdout.split('\n')) {
      const colon = line.indexOf(': ');
      if (colon > 0) table[line.slice(0, colon)] = line.slice(colon + 2).split(', ');
    }
  }
  fromRipgrep.set(rgPath, table);
  return table;
}

export type TypeFilter = { ok: true; test: (relPath: string) => boolean } | { ok: false; error: string };

/** The file-name filter of a type name (ripgrep's list when `rgPath` is given, else the table above). */
export function typeFilter(name: string, rgPath: string | undefined): TypeFilter {
  const table = (rgPath ? ripgrepTypes(rgPath) : undefined) ?? BUILT_IN;
  const globs = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!globs) {
    const known = Object.keys(table).sort();
    return { ok: false, error: `grep: unknown file type "${name}" in "type". Known types include: ${known.slice(0, 60).join(', ')}${known.length > 60 ? ', …' : ''}. Or use "glob" (e.g. "*.py").` };
  }
  const tests = globs.map((glob) => compilePathGlob(glob, { matchBaseName: true }));
  return { ok: true, test: (relPath) => tests.some((test) => test(relPath)) };
}
