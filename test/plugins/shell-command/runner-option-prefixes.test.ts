/**
 * Options that make a program run a command, read the way the program reads them: any prefix of
 * a long option the program would take (`tar --to-comm`, `git rebase --exe`, `zip --unzip-comm`),
 * short clusters (`git rebase -qx cmd`, `zip -TqTT cmd`), optional values (`git grep -Ocmd`),
 * and environment variables that carry the program's options (TAR_OPTIONS, ZIPOPT, MANOPT, LESS,
 * npm_config_*). The command they run is a segment (deny rules see it) or, computed, unknown.
 * The same programs used plainly stay ordinary. Nothing is executed.
 */
import { parseShellCommand } from '../../../sdk/shell-command/index.js';

const parse = (command: string) => parseShellCommand(command);
const argvs = async (command: string): Promise<string[]> => (await parse(command)).segments.map((s) => s.argv.join(' '));

test.each([
  ["tar --to-comm='rm y' -xf a.tar", 'rm y'],
  ["tar -xf a.tar --to-c 'rm y'", 'rm y'],
  ["tar --use-comp='rm y' -cf x d", 'rm y'],
  ["tar --checkpoint=1 --checkpoint-act=exec='rm y' -cf x d", 'rm y'],
  ["TAR_OPTIONS='--to-command=rm\\ y' tar xf a.tar", 'rm y'],
  ["TAR_OPTIONS=\"--to-command='rm y'\" tar xf a.tar", 'rm y'],
  ["env TAR_OPTIONS='--to-comm=rm\\ y' tar xf a.tar", 'rm y'],
  ["git grep -O'rm y' -e hello", 'rm y'],
  ["git grep -iO'rm y' hello", 'rm y'],
  ["git grep --open-files-in-pager='rm y' hello", 'rm y'],
  ["git grep --open='rm y' hello", 'rm y'],
  ["zip -T --unzip-comm='rm y' z.zip a", 'rm y'],
  ["zip -T --unz 'rm y' z.zip a", 'rm y'],
  ["zip -TqTT 'rm y' z.zip a", 'rm y'],
  ["zip -T -TT'rm y' z.zip a", 'rm y'],
  ["ZIPOPT='-T --unzip-command=rm' zip z.zip a", 'rm'],
  ['ZIP=-TT zip rm z.zip a', 'rm'],
  ["git rebase -q --exe='rm y' HEAD~1", 'rm y'],
  ["git rebase --ex 'rm y' HEAD~1", 'rm y'],
  ["git rebase -qx 'rm y' HEAD~1", 'rm y'],
  ["git rebase -qx'rm y' HEAD~1", 'rm y'],
  ["git ls-remote --upl='rm y' .", 'rm y'],
  ["git ls-remote --u='rm y' .", 'rm y'],
  ["git fetch -q --upload-pac='rm y' .", 'rm y'],
  ["git pull --upl 'rm y' .", 'rm y'],
  ["git clone -qu'rm y' . d", 'rm y'],
  ["git clone --u='rm y' . d", 'rm y'],
  ["git push --receive-pac='rm y' . HEAD:x", 'rm y'],
  ["git push --exe='rm y' . HEAD:x", 'rm y'],
  ["git difftool --extc='rm y' HEAD", 'rm y'],
  ["git filter-branch --tree-f 'rm y' HEAD", 'rm y'],
  ["rsync -ave 'rm y' a h:b", 'rm y'],
  ["rsync --rs='rm y' a h:b", 'rm y'],
  ["rsync --rsync-path='rm y' a h:b", 'rm y'],
  ["man --pag='rm y' ls", 'rm y'],
  ["man -aP 'rm y' ls", 'rm y'],
  ["MANOPT='-P rm\\ y' man ls", 'rm y'],
  ["npm_config_call='rm y' npx", 'rm y'],
  ["NPM_CONFIG_CALL='rm y' npm exec", 'rm y'],
  ["wget --use-ask='rm y' http://h/", 'rm y'],
])('%s runs %j, and is opaque', async (command, inner) => {
  const parsed = await parse(command);
  expect(await argvs(command)).toContain(inner);
  expect(parsed.opaque).toEqual(expect.any(String));
});

test.each([
  ['sort -T . --compress-program=rm f', 'rm'],
  ['sort --compress-prog rm f', 'rm'],
  ['sort -S 1K --co=./x.sh f', './x.sh'],
])('%s runs %j as the compress program', async (command, program) => {
  expect(await argvs(command)).toContain(program);
});

test.each([
  "TAR_OPTIONS='--to-command=rm${IFS}y' tar xf a.tar",
  'TAR_OPTIONS="--to-command=$C" tar xf a.tar',
  "yes 'rm y' | head -n 50000 | sort -S 1K -T . --compress-program=sh > /dev/null",
  'sort --compress-program=python3 f',
  "ZIPOPT=\"-TT 'rm y'\" zip z.zip a",
  "LESS='+!rm y' less f",
  "wget -e use_askpass='rm y' http://h/",
  'RSYNC_CONNECT_PROG="rm y" rsync rsync://h/m d',
])('%s runs commands nothing shows (unknown)', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.find((s) => s.unknownCommands)?.unknownCommands).toEqual(expect.any(String));
});

test('git grep -O without a value opens the files in the configured pager: opaque', async () => {
  expect((await parse('git grep -O hello')).opaque).toEqual(expect.any(String));
  expect((await parse('git grep --open-files-in-pager hello')).opaque).toEqual(expect.any(String));
});

test.each([
  'tar --checkpoint=10 -cf x.tar d',
  'tar --checkpoint -cf x.tar d',
  'TAR_OPTIONS=--verbose tar xf a.tar',
  'git send-email --to=a@b.c x.patch',
  'git send-email --cc a@b.c x.patch',
  'git rebase --no-exec HEAD~1',
  'git rebase -Xsubtree=x HEAD~1',
  'git grep -e hello',
  'git grep -Bx2 hello',
  'git fetch -j4 origin',
  'git clone -o up https://h/r d',
  'sort -k2 -t, f',
  'sort --compress-program=gzip -T . f',
  'zip -r out.zip src',
  'ZIPOPT=-q zip -r out.zip src',
  'LESS=-R less f',
  'MANOPT=-a man ls',
  'man -L de ls',
  'rsync -avz a/ h:b/',
  'npm_config_registry=http://h/ npm exec foo',
])('%s stays ordinary', async (command) => {
  const parsed = await parse(command);
  expect(parsed.segments.some((s) => s.unknownCommands)).toBe(false);
  expect(parsed.opaque).toBeUndefined();
});
