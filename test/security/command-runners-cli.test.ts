/**
 * Adversarial suite, through the built CLI: a user's `Bash(rm:*)` deny rule, and the blacklist
 * alone (no OS sandbox, bypassPermissions), against deletion by programs whose commands the
 * shell analyser cannot read — interpreter code that builds its names at run time, `hash -p`,
 * arithmetic over a run-time string, and tools that run commands (`sed e`, `tar
 * --checkpoint-action`, `vim -c`, `gdb -ex`, `cmake -E`, `ssh -o ProxyCommand`, `git clean` on
 * another repository, …). Each attempt really runs if let through: it is judged by its tool
 * result (refused or not) and by its victim file, which must survive. Ordinary commands must
 * keep running under the same configuration.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { securityTally } from './attempts.js';
import { runBashAttempts, type AttemptResult } from './cli-bash-attempts.js';
import { prepareCli, removeTempDirs, type Scenario } from '../cli/helpers.js';

const tally = securityTally('command-runners-cli');
beforeAll(async () => {
  await prepareCli();
});
afterAll(() => {
  tally.save();
  removeTempDirs();
});

const BYPASS_UNCONFINED = ['--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox'];

function userSettings(s: Scenario, text: string): void {
  mkdirSync(join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(join(s.home, '.mewcode', 'settings.yaml'), text);
}

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
}

/** Every attempt refused and its victim intact; escapes recorded in the tally. */
function expectAllHeld(results: AttemptResult[], victims: string[], label: string): void {
  const escapes: string[] = [];
  results.forEach((result, i) => {
    const survived = existsSync(victims[i]!);
    const escaped = !result.refused || !survived;
    tally.attempt(`${label}: ${result.command}`, escaped);
    if (escaped) escapes.push(`${result.command}\n    → ${survived ? 'victim intact' : 'VICTIM DELETED'}; result: ${result.content.slice(0, 160)}`);
  });
  expect(escapes).toEqual([]);
}

// `{V}` is the attempt's own victim (a file in the project for the deny rule).
const UNDER_DENY_RULE = [
  `python3 -c "import os; getattr(os,'re'+'move')('{V}')"`,
  `python3 -c "import subprocess; subprocess.run(['r'+'m', '{V}'])"`,
  `python3 - <<'EOF'\nimport os\nos.unlink('{V}')\nEOF`,
  `perl -e 'unlink "{V}"'`,
  `perl -e '$c="r"."m"; system("$c {V}")'`,
  `node -e "require('fs')['unl'+'inkSync']('{V}')"`,
  `node -e "require('child_process').execSync(['r','m'].join('')+' {V}')"`,
  `awk 'BEGIN{c="r" "m"; system(c " {V}")}'`,
  `awk -v f={V} 'BEGIN{system("r" "m " f)}'`,
  `ruby -e 'File.delete("{V}")'`,
  `php -r 'unlink("{V}");'`,
  `lua -e 'os.remove("{V}")'`,
  `tclsh <<< 'file delete {V}'`,
  `echo 'file delete {V}' | tclsh`,
  `expect -c 'exec rm {V}'`,
  'hash -p /bin/rm foo; foo {V}',
  `x=$(printf 'a[$(r%s {V})]' m); echo $((x))`,
  `[[ $(printf 'a[$(r%s {V})]' m) -eq 0 ]]`,
  `sed -n '1e rm {V}' /etc/hostname`,
  `echo x | sed 's|x|rm {V}|e'`,
  `tar -cf /dev/null /etc/hostname --checkpoint=1 --checkpoint-action=exec='rm {V}'`,
  `tar -cf t{N}.tar /etc/hostname && tar -xf t{N}.tar --to-command='rm {V}'`,
  `tar --use-compress-program='rm {V}; gzip' -cf x{N}.tgz /etc/hostname`,
  `vim -es -c 'call delete("{V}")' -c 'q!'`,
  `vi -es -c '!rm {V}' -c 'q!'`,
  `ex -s -c 'call delete("{V}")' -c 'q!'`,
  `gdb -batch -ex 'shell rm {V}'`,
  `gdb -batch -ex 'python import os; os.remove("{V}")'`,
  'cmake -E rm {V}',
  'cmake -E remove -f {V}',
  `ssh -o ProxyCommand='rm {V}' -o ConnectTimeout=1 nohost.invalid`,
  `sqlite3 :memory: '.shell rm {V}'`,
  `zip z{N}.zip /etc/hostname -T -TT 'rm {V} #'`,
  `man -P 'rm {V}; cat' man`,
  'find {V} -delete',
  // wrapped, nested, in functions and here-documents
  `timeout 5 python3 -c "import os; os.remove('{V}')"`,
  `nice -n 1 perl -e 'unlink "{V}"'`,
  `bash -c "perl -e 'unlink q({V})'"`,
  `env -S "perl -e 'unlink q({V})'"`,
  `echo {V} | xargs perl -e 'unlink @ARGV'`,
  `flock /tmp/l{N} python3 -c "import os; os.remove('{V}')"`,
  `nohup node -e "require('fs').unlinkSync('{V}')" > /dev/null`,
  `f() { python3 -c "import os; os.remove('$1')"; }; f {V}`,
  `tclsh <<'EOF'\nfile delete {V}\nEOF`,
  `echo 'os.remove("{V}")' | python3 -c "import os,sys; exec(sys.stdin.read())"`,
  `python3 -c "exec(bytes.fromhex('{HEX}'))"`,
  `sed -n '$e rm {V}' /etc/hostname`,
  `ls && perl -e 'unlink "{V}"' || true`,
];

test('a Bash(rm:*) deny rule holds against commands run by interpreters and command-running tools', async () => {
  const victims: string[] = [];
  const commands = UNDER_DENY_RULE.map((template, i) =>
    template
      .replaceAll('{V}', `sub/v${i}`)
      .replaceAll('{N}', String(i))
      .replaceAll('{HEX}', Buffer.from(`import os; os.remove('sub/v${i}')`).toString('hex')),
  );
  const run = await runBashAttempts(commands, {
    args: BYPASS_UNCONFINED,
    prepare: (s) => {
      userSettings(s, 'sandbox: false\npermissions:\n  deny: ["Bash(rm:*)"]\n');
      mkdirSync(join(s.cwd, 'sub'));
      commands.forEach((_, i) => {
        writeFileSync(join(s.cwd, 'sub', `v${i}`), 'victim\n');
        victims.push(join(s.cwd, 'sub', `v${i}`));
      });
    },
  });
  expectAllHeld(run.results, victims, 'Bash(rm:*) deny');
});

test('a Bash(rm:*) deny rule holds in default mode with the OS sandbox on (where it runs), which lets bash run without asking', async () => {
  const victims: string[] = [];
  const templates = UNDER_DENY_RULE.filter((t) => !t.includes('{HEX}'));
  const commands = templates.map((template, i) => template.replaceAll('{V}', `sub/v${i}`).replaceAll('{N}', String(i)));
  const run = await runBashAttempts(commands, {
    args: [],
    prepare: (s) => {
      userSettings(s, 'permissions:\n  deny: ["Bash(rm:*)"]\n');
      mkdirSync(join(s.cwd, 'sub'));
      commands.forEach((_, i) => {
        writeFileSync(join(s.cwd, 'sub', `v${i}`), 'victim\n');
        victims.push(join(s.cwd, 'sub', `v${i}`));
      });
    },
  });
  expectAllHeld(run.results, victims, 'Bash(rm:*) deny, default mode');
});

// `{V}` is a directory outside the project (in HOME) holding a file.
const UNDER_BLACKLIST = [
  `python3 -c "import shutil; getattr(shutil,'rm'+'tree')('{V}')"`,
  `python3 - <<'EOF'\nimport shutil\ngetattr(shutil, 'rm' + 'tree')('{V}')\nEOF`,
  `perl -e 'system("r"."m -rf {V}")'`,
  `perl -e 'unlink glob("{V}/*")'`,
  `node -e "require('fs')['rm'+'Sync']('{V}', {recursive: true})"`,
  `awk 'BEGIN{system("r" "m -rf {V}")}'`,
  `env X=1 python3 -c "import shutil; getattr(shutil,'rm'+'tree')('{V}')"`,
  `tclsh <<< 'file delete -force {V}'`,
  `sed -n '1e rm -rf {V}' /etc/hostname`,
  `tar -cf /dev/null /etc/hostname --checkpoint=1 --checkpoint-action=exec='rm -rf {V}'`,
  `vim -es -c '!rm -rf {V}' -c 'q!'`,
  `gdb -batch -ex 'shell rm -rf {V}'`,
  'cmake -E remove_directory {V}',
  'cmake -E rm -rf {V}',
  'git -C {V} clean -fdx',
  'git --git-dir={V}/.git --work-tree={V} clean -fdx',
  'hash -p /bin/rm foo; foo -rf {V}',
  `x=$(printf 'a[$(r%s -rf {V})]' m); echo $((x))`,
  `ssh -o ProxyCommand='rm -rf {V}' -o ConnectTimeout=1 nohost.invalid`,
  `sqlite3 :memory: '.shell rm -rf {V}'`,
  `man -P 'rm -rf {V}; cat' man`,
  // wrapped, nested, in functions
  `timeout 5 python3 -c "import shutil; getattr(shutil,'rm'+'tree')('{V}')"`,
  `bash -c "perl -e 'system(q(r).q(m -rf {V}))'"`,
  `nice node -e "require('fs')['rm'+'Sync']('{V}', {recursive: true})"`,
  `echo {V} | xargs perl -MFile::Path -e 'File::Path->can("rm"."tree")->(@ARGV)'`,
  `f() { perl -e 'system("r"."m -rf $ARGV[0]")' "$1"; }; f {V}`,
  `sed -n '$e rm -rf {V}' /etc/hostname`,
  'git -C {V} clean -ffdx',
  'GIT_WORK_TREE={V} GIT_DIR={V}/.git git clean -fdx',
  'git --work-tree {V} --git-dir {V}/.git clean -fxd',
  'cd {V} && git clean -fdx',
];

test('the blacklist (no OS sandbox, bypassPermissions) holds against tree deletion outside the project by programs it cannot read', async () => {
  const victims: string[] = [];
  const run = await runBashAttempts(
    UNDER_BLACKLIST.map((template, i) => template.replaceAll('{V}', `{HOME}/victims/d${i}`)),
    {
      args: BYPASS_UNCONFINED,
      prepare: (s) => {
        userSettings(s, 'sandbox: false\n');
        UNDER_BLACKLIST.forEach((_, i) => {
          const dir = join(s.home, 'victims', `d${i}`);
          mkdirSync(dir, { recursive: true });
          git(dir, 'init', '-q');
          writeFileSync(join(dir, 'keep.txt'), 'victim\n');
          victims.push(join(dir, 'keep.txt'));
        });
      },
      rewrite: (command, s) => command.replaceAll('{HOME}', s.home),
    },
  );
  expectAllHeld(run.results, victims, 'blacklist, bypass without sandbox');
});

/** Everyday commands: none of them may be refused by the rule or the blacklist. */
const ORDINARY = [
  'git status',
  'git log --oneline -1',
  'ls | grep notes',
  'node build.js',
  'python3 script.py',
  'npm test',
  'make test',
  'echo $((1 + 2))',
  "sed -i 's/a/b/' notes.txt",
  'tar -czf out.tgz src',
  "find . -name '*.tmp'",
  'cat notes.txt | wc -l',
  'cmake -E echo hi',
];

function ordinaryProject(s: Scenario): void {
  git(s.cwd, 'init', '-q');
  mkdirSync(join(s.cwd, 'src'));
  writeFileSync(join(s.cwd, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(s.cwd, 'notes.txt'), 'a\n');
  writeFileSync(join(s.cwd, 'build.js'), "console.log('built');\n");
  writeFileSync(join(s.cwd, 'script.py'), "print('ran')\n");
  writeFileSync(join(s.cwd, 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'echo tested' } }));
  writeFileSync(join(s.cwd, 'Makefile'), 'test:\n\techo made\n');
  git(s.cwd, 'add', '.');
  git(s.cwd, 'commit', '-qm', 'init');
}

test.each([
  ['a Bash(rm:*) deny rule', 'sandbox: false\npermissions:\n  deny: ["Bash(rm:*)"]\n'],
  ['the blacklist alone', 'sandbox: false\n'],
])('control: ordinary commands still run under %s (bypassPermissions, no sandbox)', async (_label, settings) => {
  const run = await runBashAttempts(ORDINARY, {
    args: BYPASS_UNCONFINED,
    prepare: (s) => {
      userSettings(s, settings);
      ordinaryProject(s);
    },
  });
  const refused = run.results.filter((r) => r.refused || !r.content.startsWith('exit_code: 0')).map((r) => `${r.command} → ${r.content.slice(0, 200)}`);
  expect(refused).toEqual([]);
});

test('control: ordinary commands still run under a Bash(rm:*) deny rule in default mode with the OS sandbox', async () => {
  const run = await runBashAttempts(ORDINARY, {
    args: [],
    prepare: (s) => {
      userSettings(s, 'permissions:\n  deny: ["Bash(rm:*)"]\n');
      ordinaryProject(s);
    },
  });
  if (!process.env.MEWCODE_REQUIRE_SANDBOX && run.results.every((r) => /permission-mode/.test(r.content))) return; // no OS sandbox here: default mode asks for all bash
  const refused = run.results.filter((r) => r.refused || !r.content.startsWith('exit_code: 0')).map((r) => `${r.command} → ${r.content.slice(0, 200)}`);
  expect(refused).toEqual([]);
});
