/**
 * The options a multiplexing program (git, npm, cargo, docker…) takes before its subcommand, as
 * each program reads them, so that deny and ask rules written as `<program> <subcommand>` also see
 * `git -C . push` as `git push`. The tables are in the syntax of the sdk's option reader
 * (sdk/shell-command/getopt.ts), which reads the words. An option that takes its value as the next
 * word must be known to find the subcommand; an option these tables do not know, an ambiguous or
 * missing value, or a `--`, leaves the subcommand unknown (the engine then lets every deny or ask
 * rule for the program apply). A subcommand the text does not show is `hidden`: a word computed at
 * run time (`git $(echo push)`, `git $G`, `git {push,x}`, `npm pu*`), or a git alias set on the
 * command line (`git -c alias.xx=push xx`, `--config-env=alias.xx=VAR`, of any value: an alias of a
 * builtin runs that builtin), or a `-c` setting whose key is computed (it may be such an alias). The engine then
 * treats the command as any subcommand of the program.
 */
import { readOptions, type OptionSyntax } from '../../sdk/shell-command/getopt.js';

interface GlobalOptions {
  syntax: OptionSyntax;
  /** A leading `+word` selects a toolchain (rustup's `cargo +nightly …`). */
  plusWord?: boolean;
}

const PROGRAMS: ReadonlyMap<string, GlobalOptions> = new Map<string, GlobalOptions>([
  // git.c handle_options compares each word whole: `-C dir`, `--git-dir=x` or `--git-dir x`, never `-Cdir`.
  ['git', {
    syntax: {
      kind: 'exact',
      long:
        '-C: -c: --git-dir: --work-tree: --namespace: --config-env: --super-prefix: --shallow-file: --attr-source: ' +
        '-p --paginate -P --no-pager --bare --no-replace-objects --literal-pathspecs --glob-pathspecs --noglob-pathspecs ' +
        '--icase-pathspecs --no-optional-locks --no-advice --no-lazy-fetch --html-path --man-path --info-path ' +
        '--exec-path:: --list-cmds:: -v --version -h --help',
    },
  }],
  // npm's nopt: an option not known to take no value takes the next word. Its abbreviations and
  // letter groups are not followed here: such a word is unknown.
  ['npm', {
    syntax: {
      kind: 'exact',
      long:
        '-C: --prefix: --registry: --userconfig: --globalconfig: --cache: --loglevel: -w: --workspace: --tag: --otp: --scope: ' +
        '--location: --color: --init-module: -g --global -s --silent -q --quiet -d -dd -ddd --verbose -y --yes --no-yes --json ' +
        '--force -f --dry-run -ws --workspaces --include-workspace-root --offline --prefer-offline --prefer-online --no-color ' +
        '-h --help -v --version --usage',
    },
  }],
  // pnpm: letters take their value attached or in the next word (`-Cpkg`, `-C pkg`), a flag may be given `=false`.
  ['pnpm', {
    syntax: {
      short: 'C:F:wrshv',
      long:
        'dir: filter: reporter: loglevel: workspace-concurrency: test-pattern: changed-files-ignore-pattern: resume-from: color: ' +
        'workspace-root:: recursive:: silent:: stream:: parallel:: aggregate-output:: no-color:: fail-if-no-match:: help:: ' +
        'version:: sort:: no-sort:: reverse::',
      exactLong: true,
    },
  }],
  ['yarn', {
    syntax: {
      kind: 'exact',
      long:
        '--cwd: --registry: --cache-folder: --modules-folder: --mutex: --network-timeout: --global-folder: --link-folder: ' +
        '--use-yarnrc: --https-proxy: --proxy: -s --silent --verbose --offline --prefer-offline --frozen-lockfile --json ' +
        '--non-interactive --no-progress --production --prod --ignore-engines --ignore-scripts --no-default-rc --no-emoji --emoji ' +
        '-h --help -v --version',
    },
  }],
  // cargo's clap definition: letters group (`-vq`), no prefixes, a flag takes no value; `+toolchain` comes from rustup's proxy.
  ['cargo', {
    syntax: { short: 'Z:C:vqVh', long: 'color: config: explain: verbose quiet frozen locked offline version list help', exactLong: true },
    plusWord: true,
  }],
  // docker's root flags (pflag: no prefixes; a boolean flag is an optional value, `--tls=false`)
  ['docker', {
    syntax: { short: 'c:H:l:Dvh', long: 'config: context: host: log-level: tlscacert: tlscert: tlskey: debug:: tls:: tlsverify:: version:: help::', exactLong: true },
  }],
  // kubectl's persistent flags (pflag, as docker)
  ['kubectl', {
    syntax: {
      short: 'n:s:v:h',
      long:
        'kubeconfig: context: namespace: cluster: user: server: token: as: as-group: as-uid: certificate-authority: ' +
        'client-certificate: client-key: cache-dir: request-timeout: tls-server-name: username: password: v: vmodule: ' +
        'log-flush-frequency: profile: profile-output: match-server-version:: insecure-skip-tls-verify:: disable-compression:: ' +
        'warnings-as-errors:: help::',
      exactLong: true,
    },
  }],
  // gh's root command has no flags of its own but help and version
  ['gh', { syntax: { kind: 'exact', long: '-h --help --version' } }],
]);

export type SubcommandForm =
  | { kind: 'plain' }
  | { kind: 'stripped'; form: string[] }
  | { kind: 'unknown'; program: string; option: string }
  | { kind: 'hidden'; program: string; why: string; form: string[] };

/** A word bash computes at run time (an expansion, a glob, a brace list): its text is not what runs. */
export function computedWord(word: string): boolean {
  return /[$`*?[]/.test(word) || /\{[^}]*,[^}]*\}/.test(word);
}

/** Why git's subcommand is not the word written (an alias or a computed setting on the command line). */
function gitAlias(argv: readonly string[], end: number): string | undefined {
  for (let i = 1; i < end; i++) {
    const word = argv[i]!;
    const setting = word === '-c' || word === '--config-env' ? argv[i + 1] : word.startsWith('--config-env=') ? word.slice('--config-env='.length) : undefined;
    if (setting === undefined) continue;
    const key = setting.includes('=') ? setting.slice(0, setting.indexOf('=')) : setting;
    if (computedWord(key)) return `the setting ${setting} of ${word} is computed at run time (it may define an alias)`;
    if (/^alias\./i.test(key)) return `${word} ${setting} defines an alias, so the word written is not the subcommand that runs`;
  }
  return undefined;
}

/**
 * `argv` (its program name already a base name) with the program's global options removed:
 * `plain` when it is not a known multiplexer or has none, `unknown` when an option cannot be read.
 */
export function withoutGlobalOptions(argv: readonly string[]): SubcommandForm {
  const program = argv[0];
  const table = program === undefined ? undefined : PROGRAMS.get(program);
  if (!table || program === undefined) return { kind: 'plain' };
  const from = table.plusWord && argv[1]?.startsWith('+') ? 2 : 1;
  const read = readOptions(argv.map((value) => ({ value })), from, table.syntax);
  const problem = read.problems[0];
  if (problem) return { kind: 'unknown', program, option: argv[problem.at]! };
  // After `--` the next word is an operand to some programs and the subcommand to others.
  if (read.dashDash) return { kind: 'unknown', program, option: '--' };
  if (read.end >= argv.length) return { kind: 'plain' };
  const form = [program, ...argv.slice(read.end)];
  const subcommand = argv[read.end]!;
  if (computedWord(subcommand)) return { kind: 'hidden', program, why: `the subcommand ${subcommand} is computed at run time`, form };
  const alias = program === 'git' ? gitAlias(argv, read.end) : undefined;
  if (alias !== undefined) return { kind: 'hidden', program, why: alias, form };
  if (read.end === 1) return { kind: 'plain' };
  return { kind: 'stripped', form };
}
