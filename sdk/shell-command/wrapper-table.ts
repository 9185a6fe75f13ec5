/**
 * How each wrapper reads its own words, taken from the programs' option tables (getopt strings
 * and long-option arrays of coreutils, util-linux, findutils, procps-ng, sudo, OpenDoas, strace,
 * systemd-run/run0, GNU time; the others from their manuals), so that wrappers.ts finds the
 * command where the program does. Options of other builds are included too (BSD `env -P`, `xargs
 * -J`, `chroot -u`; newer coreutils' `env --argv0`): a build that does not know one refuses it,
 * which runs nothing, so reading it as the other build does is never less strict.
 */
import type { OptionSyntax } from './getopt.js';

export interface WrapperSpec {
  options: OptionSyntax;
  /** Operands before the command: timeout's duration, chroot's new root, taskset's mask. */
  operands?: number;
  /** chrt: its priority operand is there only when it is a number (newer util-linux). */
  numericOperand?: boolean;
  /** Options after which the operands are no command (sudo -e edits files, command -v prints a path, ionice -p PID). */
  noCommand?: readonly string[];
  /** Options that make it run the command with a shell (sudo -s/-i, doas -s): with no command, that shell reads stdin. */
  shell?: readonly string[];
  /** With no command it starts a shell, which reads its commands from stdin: `chroot DIR`, `unshare`, `pkexec`. */
  bare?: boolean;
  /** NAME=value words: `env` after its options (any word with `=`), `sudo` among its options. */
  assignments?: 'env' | 'sudo';
  /** Options whose value is a program or command it runs besides its command (faketime --date-prog): unknown. */
  runsValue?: readonly string[];
  /** Output options whose value `|CMD` or `!CMD` pipes the output to a shell command (strace -o). */
  outputCommand?: readonly string[];
  /** setarch: a first word not starting with `-` is the architecture, read before the options. */
  archOperand?: boolean;
}

/** setarch's options; its links (linux32, linux64, i386, x86_64, uname26) take no architecture word. */
const SETARCH: WrapperSpec = {
  options: { short: '+hVv3BFILRSTXZ', long: 'help version verbose 3gb 4gb 32bit fdpic-funcptrs short-inode addr-compat-layout addr-no-randomize whole-seconds sticky-timeouts read-implies-exec mmap-page-zero uname-2.6 list' },
  noCommand: ['list'],
  bare: true, // with no program it starts /bin/sh, which reads stdin
};

const GNU_HELP = 'help version';

export const WRAPPERS: Record<string, WrapperSpec> = {
  // bash builtins and keywords: no long options but --help; `--` ends the options.
  builtin: { options: { short: '+', long: 'help', exactLong: true } },
  command: { options: { short: '+pVv', long: 'help', exactLong: true }, noCommand: ['v', 'V', 'help'] },
  exec: { options: { short: '+cla:', long: 'help', exactLong: true } },
  coproc: { options: { kind: 'exact' } },
  // GNU time (`time -p` of bash's keyword is a subset).
  time: { options: { short: '+af:o:pqvV', long: `append format: output|output-file: portability quiet verbose ${GNU_HELP}` } },
  env: {
    options: { short: '+a:C:iL:P:S:u:U:v0', long: `argv0: ignore-environment null unset: chdir: split-string: block-signal:: default-signal:: ignore-signal:: list-signal-handling debug ${GNU_HELP}` },
    assignments: 'env',
  },
  nice: { options: { short: '+n:', long: `adjustment: ${GNU_HELP}`, wholeWord: /^-[-+]?\d/ } },
  nohup: { options: { short: '+', long: GNU_HELP } },
  timeout: { options: { short: '+fk:ps:v', long: `foreground kill-after: preserve-status signal: verbose ${GNU_HELP}` }, operands: 1 },
  stdbuf: { options: { short: '+i:o:e:', long: `input: output: error: ${GNU_HELP}` } },
  chroot: { options: { short: '+G:g:nu:', long: `groups: userspec: skip-chdir ${GNU_HELP}` }, operands: 1, bare: true },
  xargs: {
    options: {
      short: '+0a:E:e::i::I:J:l::L:n:oprR:s:S:txP:d:',
      long: `null arg-file: delimiter: eof:: replace:: max-lines:: max-args: open-tty interactive no-run-if-empty max-chars: verbose show-limits exit max-procs: process-slot-var: ${GNU_HELP}`,
    },
  },
  sudo: {
    options: {
      short: '+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv',
      long: 'askpass auth-type: background bell close-from: login-class: chdir: preserve-env:: edit group: set-home help host: login remove-timestamp reset-timestamp list no-update non-interactive preserve-groups prompt: chroot: role: stdin shell command-timeout: type: other-user: user: validate version',
    },
    noCommand: ['e', 'edit', 'l', 'list', 'v', 'validate', 'K', 'remove-timestamp', 'V', 'version', 'help'],
    shell: ['s', 'shell', 'i', 'login'],
    assignments: 'sudo',
  },
  doas: { options: { short: '+a:C:Lnsu:' }, noCommand: ['C', 'L'], shell: ['s'] },
  run0: {
    options: {
      short: '+hVu:g:D:i',
      long: 'help version no-ask-password machine: unit: property: description: slice: slice-inherit user|uset: group: nice: chdir: setenv: background: area: via-shell empower pty pipe shell-prompt-prefix: lightweight: same-root-dir',
    },
    shell: ['via-shell', 'i'],
    bare: true,
  },
  pkexec: { options: { kind: 'exact', long: '--user: -u: --keep-cwd --disable-internal-agent --help --version' }, bare: true },
  setsid: { options: { short: '+cfwVh', long: `ctty fork wait ${GNU_HELP}` } },
  ionice: { options: { short: '+c:n:p:P:u:tVh', long: `class: classdata: pid: pgid: uid: ignore ${GNU_HELP}` }, noCommand: ['p', 'P', 'u', 'pid', 'pgid', 'uid'] },
  chrt: {
    options: {
      short: '+abdD:efiphmoOP:T:rRU:X:GvV',
      long: `all-tasks batch clamp-min: clamp-max: deadline deadline-overrun ext fifo idle pid max other rr sched-runtime: sched-period: sched-deadline: reset-on-fork reclaim-grub verbose ${GNU_HELP}`,
    },
    numericOperand: true,
    noCommand: ['p', 'pid', 'm', 'max'],
  },
  taskset: { options: { short: '+apchV', long: `all-tasks pid cpu-list ${GNU_HELP}` }, operands: 1, noCommand: ['p', 'pid'] },
  unshare: {
    options: {
      short: '+fhVmuinpCTUrR:w:S:G:cl:',
      long: `mount:: uts:: ipc:: net:: pid:: user:: cgroup:: time:: fork kill-child:: forward-signals mount-proc:: mount-binfmt:: map-user: map-users: map-group: map-groups: map-root-user map-current-user map-auto map-subids owner: propagation: setgroups: keep-caps setuid: setgid: root: wd: monotonic: boottime: load-interp: clear-env whitelist-env: ${GNU_HELP}`,
    },
    bare: true,
  },
  nsenter: {
    options: {
      short: '+ahVt:m::u::i::n::N:p::C::U::T::S:G:r::w::W::ecFZ',
      long: `all target: mount:: uts:: ipc:: net:: net-socket: pid:: user:: cgroup:: time:: setuid: setgid: root:: wd:: wdns:: env no-fork join-cgroup preserve-credentials keep-caps user-parent follow-context ${GNU_HELP}`,
    },
    bare: true,
  },
  setpriv: {
    options: {
      short: '+dhV',
      long: `dump nnp|no-new-privs inh-caps: ambient-caps: list-caps ruid: euid: rgid: egid: reuid: regid: clear-groups keep-groups init-groups groups: bounding-set: securebits: pdeathsig: ptracer: selinux-label: apparmor-profile: landlock-access: landlock-rule: landlock-support list-landlock-access list-landlock-rights: seccomp-filter: reset-env ${GNU_HELP}`,
    },
  },
  'systemd-run': {
    options: {
      short: '+hrH:M:E:p:tPqGdSu:',
      long: `user system scope unit: description: slice: slice-inherit remain-after-exit expand-environment: send-sighup host: machine: service-type: wait uid: gid: nice: setenv: property: tty|pty pipe quiet on-active: on-boot: on-startup: on-unit-active: on-unit-inactive: on-calendar: on-timezone-change on-clock-change timer-property: path-property: socket-property: no-block no-ask-password collect working-directory: same-dir shell ignore-failure background: job-mode: json: ${GNU_HELP}`,
    },
    shell: ['S', 'shell'],
  },
  fakeroot: { options: { short: '+l:f:i:s:ub:vh', long: 'lib: faked: unknown-is-real fd-base: version help' }, bare: true },
  faketime: { options: { kind: 'exact', long: '-m -f -p: --exclude-monotonic --disable-shm --date-prog: -h --help -v --version' }, operands: 1, runsValue: ['--date-prog'] },
  eatmydata: { options: { short: '+', long: GNU_HELP, exactLong: true } },
  nocache: { options: { short: '+n:' } },
  torsocks: {
    options: { kind: 'exact', long: '-u: --user: -p: --pass: -a: --address: -P: --port: -i --isolate -d --debug -q --quiet --shell --version -h --help' },
    shell: ['--shell'],
  },
  proxychains: { options: { kind: 'exact', long: '-q -f:' } },
  proxychains4: { options: { kind: 'exact', long: '-q -f:' } },
  'xvfb-run': { options: { short: '+ade:f:hn:lp:s:w:', long: 'auto-servernum auto-display error-file: auth-file: help server-num: listen-tcp xauth-protocol: server-args: wait:' } },
  'dbus-run-session': { options: { kind: 'exact', long: '--config-file: --dbus-daemon: --help --version' } },
  'ssh-agent': { options: { short: '+cDdksE:a:O:P:t:' }, noCommand: ['k'] },
  caffeinate: { options: { short: '+dimsut:w:' } },
  cgexec: { options: { short: '+g:hbr:', long: 'sticky help' } },
  numactl: {
    options: {
      short: '+aC:N:m:p:P:i:w:lsHSdDL:M:o:f:I:uTtb:V:c:',
      long: 'all cpunodebind: physcpubind: membind: preferred: preferred-many: interleave: weighted-interleave: localalloc show hardware shm: file: offset: length: shmmode: shmid: strict huge touch dump dump-nodes balancing cpubind: version',
    },
  },
  chronic: { options: { short: '+ev' } },
  unbuffer: { options: { kind: 'exact', long: '-p' } },
  catchsegv: { options: { kind: 'exact' } },
  firejail: { options: { kind: 'loose' }, bare: true },
  valgrind: { options: { kind: 'loose' } },
  strace: {
    options: {
      short: '+a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ',
      long: 'columns: output-append-mode detach-on: summary-only summary debug daemonize|daemonised|daemonized:: env: follow-forks output-separately help instruction-pointer interruptible: kill-on-exit stack-traces:: syscall-limit: syscall-number output: summary-syscall-overhead: attach: trace-path: relative-timestamps:: string-limit: summary-sort-by: absolute-timestamps|timestamps:: syscall-times:: user: summary-columns: no-abbrev version summary-wall-clock strings-in-hex:: const-print-style: pidns-translation successful-only failed-only|failing-only seccomp-bpf tips:: argv0: trace: trace-fds: abbrev: verbose: raw: signals: status: read: write: fault: inject: kvm: quiet|silent|silence:: decode-fds:: decode-pids: secontext::',
    },
    outputCommand: ['o', 'output'],
  },
  // util-linux 2.38: every resource option takes an OPTIONAL value (`--nofile=64`, `-n64`), so
  // `prlimit --nofile 64 cmd` runs `64`.
  prlimit: {
    options: {
      short: '+c::d::e::f::hi::l::m::n::o:p:q::r::s::t::u::v::x::y::V',
      long: `core:: data:: nice:: fsize:: sigpending:: memlock:: rss:: nofile:: msgqueue:: rtprio:: stack:: cpu:: nproc:: as:: locks:: rttime:: pid: output: noheadings raw verbose ${GNU_HELP}`,
    },
    noCommand: ['p', 'pid'],
  },
  setarch: { ...SETARCH, archOperand: true },
  linux32: SETARCH,
  linux64: SETARCH,
  i386: SETARCH,
  x86_64: SETARCH,
  uname26: SETARCH,
  choom: { options: { short: '+n:p:hV', long: `adjust: pid: ${GNU_HELP}` }, noCommand: ['p', 'pid'] },
  uclampset: { options: { short: '+m:M:ap:sRvhV', long: `all-tasks pid: system reset-on-fork verbose ${GNU_HELP}` }, noCommand: ['p', 'pid', 's', 'system'] },
  // e2fsprogs: `logsave [-asv] LOGFILE PROGRAM [ARGS]`.
  logsave: { options: { short: '+asv' }, operands: 1 },
  // Container init processes and privilege droppers.
  tini: { options: { short: '+hsp:vwgle:', long: 'version' } },
  'dumb-init': { options: { short: '+hcr:vV', long: 'help single-child rewrite: verbose version setsid' } },
  gosu: { options: { kind: 'exact', long: '--help -h --version -v' }, operands: 1, noCommand: ['--help', '-h', '--version', '-v'] },
  'su-exec': { options: { kind: 'exact' }, operands: 1 },
  ltrace: {
    options: {
      short: '+a:A:bcCD:e:fF:hiLl:n:o:p:rs:Su:tTVw:x:',
      long: 'align: config: debug: demangle help indent: library: output: version no-signals where: no-plt',
    },
  },
};
