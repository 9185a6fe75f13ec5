/**
 * The options a multiplexing program (git, npm, cargo, docker…) takes before its subcommand, as
 * each program reads them, so that deny and ask rules written as `<program> <subcommand>` also see
 * `git -C . push` as `git push`. An option that takes its value as the next word must be known to
 * find the subcommand; an option these tables do not know leaves the subcommand unknown (the
 * engine then lets every deny or ask rule for the program apply).
 */

interface GlobalOptions {
  /** Options whose value is the next word (or attached after `=` for long ones, `-Xvalue` when `attachedShort`). */
  valued: ReadonlySet<string>;
  /** Options without a value (long ones also accepted as `--x=value` when listed in `optionalValue`). */
  flags: ReadonlySet<string>;
  /** Long options whose value may only be attached with `=`. */
  optionalValue?: ReadonlySet<string>;
  /** Short options may carry their value attached (`-Cdir`, pflag and getopt style). */
  attachedShort?: boolean;
  /** A leading `+word` selects a toolchain (rustup's `cargo +nightly …`). */
  plusWord?: boolean;
}

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));

const PROGRAMS: ReadonlyMap<string, GlobalOptions> = new Map<string, GlobalOptions>([
  // git.c handle_options
  ['git', {
    valued: set('-C -c --git-dir --work-tree --namespace --config-env --super-prefix --shallow-file --attr-source'),
    flags: set(
      '-p --paginate -P --no-pager --bare --no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs ' +
      '--icase-pathspecs --no-optional-locks --no-advice --no-lazy-fetch --html-path --man-path --info-path --exec-path ' +
      '-v --version -h --help',
    ),
    optionalValue: set('--exec-path --list-cmds'),
  }],
  // npm's nopt: an option not known to take no value takes the next word
  ['npm', {
    valued: set('-C --prefix --registry --userconfig --globalconfig --cache --loglevel -w --workspace --tag --otp --scope --location --color --init-module'),
    flags: set('-g --global -s --silent -q --quiet -d -dd -ddd --verbose -y --yes --no-yes --json --force -f --dry-run -ws --workspaces --include-workspace-root --offline --prefer-offline --prefer-online --no-color -h --help -v --version --usage'),
  }],
  ['pnpm', {
    valued: set('-C --dir -F --filter --reporter --loglevel --workspace-concurrency --test-pattern --changed-files-ignore-pattern --resume-from --color'),
    flags: set('-w --workspace-root -r --recursive -s --silent --stream --parallel --aggregate-output --no-color --fail-if-no-match -h --help -v --version --sort --no-sort --reverse'),
    attachedShort: true,
  }],
  ['yarn', {
    valued: set('--cwd --registry --cache-folder --modules-folder --mutex --network-timeout --global-folder --link-folder --use-yarnrc --https-proxy --proxy'),
    flags: set('-s --silent --verbose --offline --prefer-offline --frozen-lockfile --json --non-interactive --no-progress --production --prod --ignore-engines --ignore-scripts --no-default-rc --no-emoji --emoji -h --help -v --version'),
  }],
  // cargo's clap definition; `+toolchain` comes from rustup's proxy
  ['cargo', {
    valued: set('--color -Z --config -C --explain'),
    flags: set('-v -vv -vvv --verbose -q --quiet --frozen --locked --offline -V --version --list -h --help'),
    attachedShort: true,
    plusWord: true,
  }],
  // docker's root flags (pflag)
  ['docker', {
    valued: set('--config -c --context -H --host -l --log-level --tlscacert --tlscert --tlskey'),
    flags: set('-D --debug --tls --tlsverify -v --version -h --help'),
    attachedShort: true,
  }],
  // kubectl's persistent flags (pflag)
  ['kubectl', {
    valued: set(
      '--kubeconfig --context -n --namespace --cluster --user -s --server --token --as --as-group --as-uid ' +
      '--certificate-authority --client-certificate --client-key --cache-dir --request-timeout --tls-server-name ' +
      '--username --password -v --v --vmodule --log-flush-frequency --profile --profile-output',
    ),
    flags: set('--match-server-version --insecure-skip-tls-verify --disable-compression --warnings-as-errors -h --help'),
    attachedShort: true,
  }],
  // gh's root command has no flags of its own but help and version
  ['gh', { valued: set(''), flags: set('-h --help --version') }],
]);

export type SubcommandForm =
  | { kind: 'plain' }
  | { kind: 'stripped'; form: string[] }
  | { kind: 'unknown'; program: string; option: string };

/**
 * `argv` (its program name already a base name) with the program's global options removed:
 * `plain` when it is not a known multiplexer or has none, `unknown` when an option cannot be read.
 */
export function withoutGlobalOptions(argv: readonly string[]): SubcommandForm {
  const program = argv[0];
  const table = program === undefined ? undefined : PROGRAMS.get(program);
  if (!table || program === undefined) return { kind: 'plain' };
  let i = 1;
  if (table.plusWord && argv[1]?.startsWith('+')) i = 2;
  for (; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith('-') || word === '-') break;
    if (word === '--') return { kind: 'unknown', program, option: word };
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    if (eq > 0) {
      const name = word.slice(0, eq);
      if (table.valued.has(name) || table.optionalValue?.has(name) || (table.flags.has(name) && table.attachedShort)) continue;
      return { kind: 'unknown', program, option: word };
    }
    if (table.valued.has(word)) {
      if (i + 1 >= argv.length) return { kind: 'unknown', program, option: word };
      i++;
      continue;
    }
    if (table.flags.has(word) || table.optionalValue?.has(word)) continue;
    if (table.attachedShort && /^-[A-Za-z]/.test(word) && table.valued.has(word.slice(0, 2))) continue;
    return { kind: 'unknown', program, option: word };
  }
  if (i === 1 || i >= argv.length) return { kind: 'plain' };
  return { kind: 'stripped', form: [program, ...argv.slice(i)] };
}

export function isMultiplexer(program: string): boolean {
  return PROGRAMS.has(program);
}
