/**
 * A2, A10: the ten blacklist patterns, judged on every segment of a command (argv after
 * shell unquoting), robust to spacing, flag order and spelling; commands that merely mention a
 * dangerous command are let through; unparseable commands are also checked as text.
 */
import { checkCommand, checkRawText } from '../../../plugins/permission-blacklist/check.js';

const where = { projectRoot: '/tmp/project', homeDir: '/tmp/home' };
const verdict = async (command: string) => checkCommand(command, where);

/** Pattern number → spellings that must all be denied. */
const PATTERNS: Record<string, string[]> = {
  '1 recursive rm of / or home': [
    'rm -rf /',
    'rm -fr /',
    'rm -Rf /',
    'rm -r -f /',
    'rm --recursive --force /',
    'rm -r --force /',
    'rm   -rfv    /',
    'rm -vrf /*',
    'rm -rf -- /',
    'rm -r /', // recursive without -f: still the whole disk
    'rm --rec --fo /', // GNU accepts unambiguous prefixes
    '/bin/rm -rf /',
    '"rm" -rf "/"',
    "rm -rf $'\\x2f'",
    'rm -rf //',
    'rm -rf /tmp/../',
    'rm -rf /{,}',
    'rm -rf ~',
    'rm -rf ~/',
    'rm -rf ~/*',
    'rm -rf ~/..',
    'rm -rf ~root',
    'rm -rf $HOME',
    'rm -rf ${HOME}',
    'rm -rf "$HOME"',
    'rm -rf "${HOME}/"',
    'rm -rf /usr',
    'rm -rf /etc/',
    'rm -rf "$DIR"/', // `/` when DIR is unset
    'rm -rf ../../../../../../../../../..', // from the project root, that is /
    'cd / && rm -rf *',
    'cd ~ && rm -rf .',
    'cd "$X" && rm -rf *', // "here" cannot be determined
    'find / -delete',
    'find ~ -mindepth 1 -exec rm -rf {} +',
    'R=rm; $R -rf /',
  ],
  '2 dd to a block device': [
    'dd if=/dev/zero of=/dev/sda',
    'dd of=/dev/nvme0n1 if=x bs=1M',
    'dd if=img of="/dev/sdb" status=progress',
    'dd if=x of=/dev/disk2',
    'dd if=x of=/dev/mmcblk0',
    'dd if=x of=/dev//sda',
    'dd if=x of=/dev/mapper/root',
    'dd if=x of=/dev/xvda1',
  ],
  '3 fork bomb': [
    ':(){ :|:& };:',
    ':(){ :|: & };:',
    'bomb(){ bomb|bomb& };bomb',
    'function f { f | f & }; f',
    'f() { f & f; }; f',
    'a(){ b|b& }; b(){ a|a& }; a',
  ],
  '4 mkfs': ['mkfs /dev/sda1', 'mkfs.ext4 /dev/sda1', 'mkfs -t xfs /dev/sdb', '/sbin/mkfs.vfat -F 32 /dev/sdc1', 'mke2fs /dev/sda1', 'sudo mkfs.btrfs -f /dev/nvme0n1p2'],
  '5 redirect to a block device': [
    'echo x > /dev/sda',
    'cat img >> /dev/sdb',
    'ls &> /dev/nvme0n1',
    'echo x >| /dev/hda',
    'echo x 1>/dev/sda',
    'echo x >& /dev/sda',
    '{ cat a; } > /dev/vda',
    'cat img | tee /dev/sda',
    '> /dev/sda',
  ],
  '6 recursive chmod 777 of system dirs': [
    'chmod -R 777 /',
    'chmod -R 0777 /etc',
    'chmod 777 -R /usr',
    'chmod --recursive 777 /var',
    'chmod -Rv a+rwx /bin',
    'chmod -R o+w /boot',
    'chmod -R ugo+rwx /lib',
    'chmod -fR 777 /sbin',
    'chmod -R 777 /usr/local/bin',
    'chmod -R 000 /', // any recursive chmod of / itself
  ],
  '7 dd to another device': ['dd if=/dev/zero of=/dev/mem', 'dd if=x of=/dev/port', 'dd if=/dev/urandom of=/dev/kmem bs=1'],
  '8 --no-preserve-root': ['rm --no-preserve-root -rf /', 'rm -rf --no-preserve-root /', 'rm --no-preserve-root x', 'rm --no-pres -r /tmp/x', 'sudo rm -r --no-preserve-root /tmp/x'],
  '9 mv over critical files': [
    'mv x /etc/passwd',
    'mv /etc/shadow /tmp/',
    'mv -f sudoers /etc/sudoers',
    'mv passwd /etc/',
    'mv -t /etc passwd',
    'mv --target-directory=/etc shadow',
    'mv kernel /boot/',
    'mv x /boot/vmlinuz',
    'cd /etc && mv x passwd',
    'cp x /etc/shadow',
    'echo "root::0:0::/:/bin/sh" >> /etc/passwd',
    'ln -sf /tmp/x /etc/sudoers.d/me',
  ],
  '10 wipefs and disk wipes': ['wipefs -a /dev/sda', 'wipefs --all /dev/nvme0n1', 'sudo wipefs -af /dev/sdb', 'blkdiscard /dev/sda', 'shred -n 1 /dev/sda', 'dd if=/dev/sda of=disk.img'],
};

describe.each(Object.entries(PATTERNS))('pattern %s', (_pattern, spellings) => {
  test.each(spellings)('%j is denied', async (command) => {
    const hit = await verdict(command);
    expect(hit).toMatchObject({ pattern: expect.any(String), segment: expect.any(String), fromRawText: false });
  });
});

test('every pattern has at least three spellings', () => {
  for (const spellings of Object.values(PATTERNS)) expect(spellings.length).toBeGreaterThanOrEqual(3);
});

const COMPOUND = [
  'git status && rm -rf /',
  "echo ok | sh -c 'rm -rf ~'",
  'x=$(rm -rf /)',
  '`rm -rf /`',
  '(cd /tmp; rm -fr /)',
  'true; mkfs.ext4 /dev/sda1',
  'ls || dd if=/dev/zero of=/dev/sda',
  'sudo rm -rf --no-preserve-root /',
  'env X=1 rm -rf ~',
  'echo "$(rm -rf /)"',
  'npm test; { rm -rf /; }',
  'if true; then rm -rf ~; fi',
  'for i in 1; do dd if=/dev/zero of=/dev/sda; done',
  'diff <(rm -rf /) x',
  'echo ${x:-$(rm -rf /)}',
  'export X=`rm -rf /`',
  "bash -c 'ls && sh -c \"rm -rf /\"'",
  'eval "rm -rf /"',
  "echo 'rm -rf /' | bash",
  "bash <<< 'mkfs /dev/sda1'",
  "bash <<'EOF'\nrm -rf /\nEOF",
  'nice -n 10 nohup timeout 5 rm -rf /',
  'sudo -u root env A=1 rm -rf /',
  'xargs -0 rm -rf / < list',
  'find / -exec rm -rf {} +',
  "su -c 'wipefs -a /dev/sda'",
  'cat x | sudo tee /dev/sda > /dev/null',
  'sudo >/dev/null rm -rf /',
  'case x in x) chmod -R 777 /etc;; esac',
  'f() { mv x /etc/shadow; }; f',
  'ls; :(){ :|:& };:',
  "watch -n 1 'rm -rf ~'",
  'echo / | xargs rm -rf',
  "alias ll='rm -rf ~'; ll",
  "trap 'rm -rf /' EXIT",
  'cd .. && cd .. && cd .. && rm -rf *',
  'R=rm; "$R" -rf /',
  'mv /etc/passwd{,.bak}',
  'cp /dev/zero /dev/sda',
];

test('compound-command suite: every dangerous segment is found', async () => {
  const misses: string[] = [];
  for (const command of COMPOUND) if (!(await verdict(command))) misses.push(command);
  console.log(`compound-command suite: ${COMPOUND.length} cases, ${misses.length} misses`);
  expect(misses).toEqual([]);
});

test('the hit names the pattern and the segment', async () => {
  expect(await verdict('git status && rm -rf /')).toEqual({ pattern: 'recursive rm of /', segment: 'rm -rf /', fromRawText: false });
  expect(await verdict("echo ok | sh -c 'rm -rf ~'")).toEqual({ pattern: 'recursive rm of the home directory', segment: 'rm -rf ~', fromRawText: false });
  expect(await verdict('ls || dd if=/dev/zero of=/dev/sda')).toMatchObject({ pattern: 'dd writing to the block device /dev/sda', segment: 'dd if=/dev/zero of=/dev/sda' });
  expect(await verdict(':(){ :|:& };:')).toMatchObject({ pattern: 'fork bomb (function : starts copies of itself)' });
});

test.each([
  'rm -rf ./build',
  'rm -rf node_modules',
  'echo "rm -rf /"',
  "grep -r 'rm -rf /' .",
  'git commit -m "rm -rf / is dangerous"',
  'dd if=a of=b',
  'chmod -R 755 ./dist',
  'mv a b',
  // more that must stay allowed (targets that are literal paths inside the project /tmp/project;
  // expansions, `~` and paths outside are denied since issue 8: see outside.test.ts)
  'rm -rf /tmp/project/build',
  'rm -f /tmp/x',
  'rm -r dir',
  'echo x > /dev/null 2>&1',
  'dd if=/dev/zero of=./disk.img bs=1M count=10',
  'dd if=/dev/urandom of=/dev/null count=1',
  'cat /etc/passwd',
  'cp /etc/passwd ./passwd.bak',
  'mv ./passwd ./etc/',
  'chmod 777 ./script.sh',
  'chmod -R 777 ./tmp',
  'chmod -R 755 /tmp/project',
  // the mode word is no target: `777` is not ./777 (here /usr/777 after the cd)
  'cd /usr && chmod -R 777 /tmp/project/lnk4/',
  'cd /etc && chmod -R 0777 /tmp/project/x',
  'cd /usr && chmod -R --reference=/tmp/ref /tmp/project/x',
  'find . -name "*.o" -delete',
  'ls -l /dev/sda',
  'shred secret.txt',
  'printf "mkfs /dev/sda"',
  'echo ":(){ :|:& };:"',
  'f(){ echo hi; }; f',
  'f(){ f; }', // recursive but sequential: not a fork bomb
  'walk(){ for d in "$1"/*; do echo "$d"; [ -d "$d" ] && walk "$d" | sed "s/^/  /"; done; }; walk .', // one recursive call: linear
  // names of Object.prototype are ordinary command names
  'constructor x',
  'toString',
  '__proto__ -rf /',
  'hasOwnProperty rm -rf /',
  'git rm -r --cached dist',
  'npm run mkfs-docs',
  'docker run --rm -v "$PWD":/src img',
])('%j is allowed (no verdict)', async (command) => {
  expect(await verdict(command)).toBeUndefined();
});

describe('unparseable commands are also checked as text', () => {
  test.each(['rm -rf / (', 'echo "rm -rf /" (', 'ls; mkfs.ext4 /dev/sda1 )', 'x=$(rm -rf ~', 'echo x > /dev/sda (', ':(){ :|:& };: )', 'dd if=/dev/zero of=/dev/sda )', 'if true; then rm -rf /'])('%j is denied', async (command) => {
    expect(await verdict(command)).toMatchObject({ pattern: expect.any(String) });
  });

  test('the text check is conservative: quoted text counts when the command does not parse', async () => {
    // Parsed cleanly, `echo "rm -rf /"` is harmless; unparseable, the quotes cannot be trusted.
    expect(await verdict('echo "rm -rf /" (')).toEqual({ pattern: 'recursive rm of /', segment: 'echo rm -rf /', fromRawText: true });
  });

  test('an unparseable but harmless command gets no verdict', async () => {
    expect(await verdict('ls (')).toBeUndefined();
    expect(await verdict('echo "unterminated')).toBeUndefined();
  });

  test('the raw check alone (as used when the parser is unavailable)', () => {
    const unknown = { cwd: undefined, home: '/tmp/home' };
    expect(checkRawText("sudo rm -rf '/'", unknown)).toMatchObject({ pattern: 'recursive rm of /' });
    expect(checkRawText('ls && rm -rf ~', unknown)).toMatchObject({ segment: 'rm -rf ~' });
    expect(checkRawText('git status', unknown)).toBeUndefined();
  });
});

test.each([
  ['chmod -R 777 /etc', 'recursive chmod 777 of /etc'],
  ['chmod -R 777 -- /usr', 'recursive chmod 777 of /usr'],
  ['chmod -R -w,o+w /var', 'recursive chmod -w,o+w of /var'],
  ['cd /usr && chmod -R 777 lib', 'recursive chmod 777 of /usr/lib'],
])('%j names the file it changes, not the mode word', async (command, pattern) => {
  expect(await verdict(command)).toMatchObject({ pattern });
});
