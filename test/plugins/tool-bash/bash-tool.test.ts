/**
 * T5 (bash), K1, K5, L7, A4 with real processes. Only harmless commands: echo, printf,
 * sleep, seq, head, yes | head, cat of temporary files.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BASE_ENV_NAMES } from '../../../plugins/tool-bash/environment.js';
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, TIMEOUT_MARGIN_MS } from '../../../plugins/tool-bash/bash-tool.js';
import { body, processGone, project, readPid, spillPathOf, waitUntilGone } from './helpers.js';

const MARKER = /\n\[… [^\n]* omitted: [^\n]*…\]\n/;

describe('the tool contract', () => {
  test('name, category, permission target, timeout and schema', async () => {
    const { tool } = await project();
    expect(tool.name).toBe('bash');
    expect(tool.readOnly).toBe(false);
    expect(tool.category).toBe('exec');
    expect(tool.permissionTarget({ command: 'npm test' })).toEqual({ kind: 'command', command: 'npm test' });
    expect(tool.permissionTarget({})).toEqual({ kind: 'command', command: '' });
    expect(tool.timeoutMs({})).toBe(DEFAULT_TIMEOUT_MS + TIMEOUT_MARGIN_MS);
    expect(tool.timeoutMs({ timeout: 3000 })).toBe(3000 + TIMEOUT_MARGIN_MS);
    expect(tool.timeoutMs({ timeout: '4000' })).toBe(4000 + TIMEOUT_MARGIN_MS);
    expect(tool.timeoutMs({ timeout: 9_000_000 })).toBe(MAX_TIMEOUT_MS + TIMEOUT_MARGIN_MS);
    expect(tool.timeoutMs({ timeout: 'soon' })).toBe(DEFAULT_TIMEOUT_MS + TIMEOUT_MARGIN_MS);
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      required: ['command'],
      properties: { command: { type: 'string' }, description: { type: 'string' }, timeout: { type: 'integer', maximum: 600000 }, workdir: { type: 'string' } },
    });
  });

  test('the description says when to use it, when not, the timeout and where the full output goes', async () => {
    const { tool } = await project();
    for (const text of ['builds, tests, git', 'read_file', 'glob', 'grep', 'edit_file', '120000', '600000', '200 lines and 8000 bytes', '.mewcode/tool-output/', 'exit_code: N']) {
      expect(tool.description).toContain(text);
    }
  });
});

describe('running commands', () => {
  test('exit_code: 0 comes first, then the output', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'echo hello; printf "no newline"' }, p.context());
    expect(result).toEqual({ content: 'exit_code: 0\nhello\nno newline', isError: false, exitCode: 0, streams: { stdout: 'hello\nno newline', stderr: '' } });
  });

  test('a non-zero exit is a normal result; stderr is interleaved with stdout', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'echo out1; sleep 0.05; echo err1 >&2; sleep 0.05; echo out2; exit 3' }, p.context());
    expect(result.isError).toBe(false);
    expect(result.content).toBe('exit_code: 3\nout1\nerr1\nout2');
  });

  test('no output says so; a shell killed by a signal shows 128+n and the signal', async () => {
    const p = await project();
    expect((await p.tool.execute({ command: 'true' }, p.context())).content).toBe('exit_code: 0\n(no output)');
    const killed = await p.tool.execute({ command: 'echo before; kill -TERM $$' }, p.context());
    expect(killed).toEqual({ content: 'exit_code: 143 (terminated by SIGTERM)\nbefore', isError: false, exitCode: 143, streams: { stdout: 'before\n', stderr: '' } });
  });

  test('runs with bash (bash syntax works) in the project root with stdin closed', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'arr=(a b c); echo "${arr[1]} $PWD"; cat; echo "stdin: $?"' }, p.context());
    expect(result.content).toBe(`exit_code: 0\nb ${p.root}\nstdin: 0`);
  });

  test('whitespace is kept as printed (no trimming)', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'printf "  indented\\n\\n"' }, p.context());
    expect(result.content).toBe('exit_code: 0\n  indented\n');
  });
});

describe('timeouts and cancellation', () => {
  test('a timeout is an error result with the partial output, returned promptly', async () => {
    const p = await project();
    const started = Date.now();
    const result = await p.tool.execute({ command: 'echo partial; sleep 30; echo never', timeout: 300 }, p.context());
    expect(Date.now() - started).toBeLessThan(2500);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: the command timed out after 300 ms and was stopped \(SIGTERM to its process group\); exit_code: 143 \(terminated by SIGTERM\)\. Output before the timeout:\npartial\n/);
    expect(result.content).not.toContain('never');
    expect(result.content).toContain('larger timeout (at most 600000 ms)');
  });

  test('a declared timeout above the kernel default is honoured: a 1.5 s command with timeout 3000 succeeds', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'sleep 1.5; echo finished', timeout: 3000 }, p.context());
    expect(result).toEqual({ content: 'exit_code: 0\nfinished', isError: false, exitCode: 0, streams: { stdout: 'finished\n', stderr: '' } });
  });

  test('a timeout above the maximum is clamped and the result says so', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'echo ok', timeout: 900_000 }, p.context());
    expect(result.isError).toBe(false);
    expect(result.content).toBe('exit_code: 0\nok\n\nNote: the requested timeout of 900000 ms is above the maximum; the command ran with 600000 ms.');
  });

  test('a timeout kills the whole process group: the grandchild is gone', async () => {
    const p = await project();
    const pidFile = path.join(p.root, 'grandchild.pid');
    const result = await p.tool.execute({ command: `sh -c 'sleep 30 & echo $! > ${pidFile}; wait'`, timeout: 500 }, p.context());
    expect(result.isError).toBe(true);
    const pid = await readPid(pidFile);
    expect(await waitUntilGone(pid, 1000)).toBe(true);
  });

  test('a group member that ignores SIGTERM is killed with SIGKILL after the grace period', async () => {
    const p = await project({ killGraceMs: 300 });
    const pidFile = path.join(p.root, 'stubborn.pid');
    const started = Date.now();
    const result = await p.tool.execute({ command: `trap '' TERM; sleep 30 & echo $! > ${pidFile}; wait`, timeout: 300 }, p.context());
    expect(Date.now() - started).toBeLessThan(2500);
    expect(result.isError).toBe(true);
    expect(result.content).toContain('SIGTERM to its process group, then SIGKILL after 300 ms');
    const pid = await readPid(pidFile);
    expect(await waitUntilGone(pid, 1500)).toBe(true);
  });

  test('cancellation through the signal stops the group and says so', async () => {
    const p = await project();
    const pidFile = path.join(p.root, 'cancel.pid');
    const controller = new AbortController();
    const running = p.tool.execute({ command: `echo started; sh -c 'sleep 30 & echo $! > ${pidFile}; wait'` }, p.context({ signal: controller.signal }));
    // Cancelled once the command runs, however slowly a loaded machine starts it.
    const pid = await readPid(pidFile, 10_000);
    const cancelledAt = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - cancelledAt).toBeLessThan(2500);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Error: the command was cancelled after \d+ ms and stopped \(SIGTERM to its process group\); exit_code: 143 \(terminated by SIGTERM\)\. Output before the cancellation:\nstarted$/);
    expect(await waitUntilGone(pid, 1000)).toBe(true);
  });

  test('an already cancelled call starts nothing', async () => {
    const p = await project();
    const controller = new AbortController();
    controller.abort();
    const result = await p.tool.execute({ command: `echo ran > ${path.join(p.root, 'ran.txt')}` }, p.context({ signal: controller.signal }));
    expect(result.isError).toBe(true);
    expect(result.content).toContain('not started');
    await expect(stat(path.join(p.root, 'ran.txt'))).rejects.toThrow();
  });
});

describe('background jobs', () => {
  test('a background job holding the pipes does not hang the call; it keeps running until the session ends', async () => {
    const p = await project();
    const started = Date.now();
    const result = await p.tool.execute({ command: 'sleep 30 & echo "bg $!"' }, p.context());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.isError).toBe(false);
    const pid = Number(/^bg (\d+)$/m.exec(result.content)?.[1]);
    expect(result.content).toMatch(/^exit_code: 0\nbg \d+\n\nNote: processes this command started in the background are still running \(process group \d+\)/);
    expect(result.content).toContain('their later output is not captured');
    expect(result.content).toContain('kill -- -');
    expect(processGone(pid)).toBe(false);
    p.tool.stopBackground();
    expect(await waitUntilGone(pid, 1000)).toBe(true);
  });

  test('a background job with its output redirected returns at once and is reported', async () => {
    const p = await project();
    const started = Date.now();
    const result = await p.tool.execute({ command: 'sleep 30 > /dev/null 2>&1 & echo "bg $!"' }, p.context());
    expect(Date.now() - started).toBeLessThan(5_000);
    const pid = Number(/^bg (\d+)$/m.exec(result.content)?.[1]);
    expect(result.content).toContain('still running');
    expect(result.content).not.toContain('not captured');
    p.tool.stopBackground();
    expect(await waitUntilGone(pid, 1000)).toBe(true);
  });

  test('at session end, a background job that ignores SIGTERM gets SIGKILL after the grace period', async () => {
    const p = await project({ killGraceMs: 300 });
    const result = await p.tool.execute({ command: `trap '' TERM; sleep 30 > /dev/null 2>&1 & echo "bg $!"` }, p.context());
    const pid = Number(/^bg (\d+)$/m.exec(result.content)?.[1]);
    p.tool.stopBackground();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(processGone(pid)).toBe(false); // SIGTERM ignored
    expect(await waitUntilGone(pid, 1500)).toBe(true);
  });

  test('output the shell wrote just before exiting is kept', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: 'sleep 30 & seq 1 150' }, p.context());
    const lines = body(result).split('\n\nNote:')[0]!.split('\n');
    expect(lines).toHaveLength(150);
    expect(lines[149]).toBe('150');
    p.tool.stopBackground();
  });
});

describe('environment allowlist (K5)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test('secrets are absent, the five allowlisted variables and configured names are passed', async () => {
    process.env.MEWCODE_TEST_SECRET = 'hunter2';
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test';
    process.env.MEWCODE_TEST_EXTRA = 'extra-value';
    process.env.LANG = 'C.UTF-8';
    process.env.TERM = 'xterm-test';
    process.env.USER = 'tester';
    const p = await project({ settings: () => ({ envAllowlist: ['MEWCODE_TEST_EXTRA'] }) });
    const secret = await p.tool.execute({ command: 'echo ${MEWCODE_TEST_SECRET:-absent} ${ANTHROPIC_API_KEY:-absent}' }, p.context());
    expect(secret.content).toBe('exit_code: 0\nabsent absent');
    const allowed = await p.tool.execute({ command: 'echo "$HOME|$PATH|$USER|$TERM|$LANG|$MEWCODE_TEST_EXTRA"' }, p.context());
    expect(allowed.content).toBe(`exit_code: 0\n${process.env.HOME}|${process.env.PATH}|tester|xterm-test|C.UTF-8|extra-value`);
    // Nothing else from our environment: only the allowlist and what the shell sets itself.
    const names = body(await p.tool.execute({ command: 'env | sed "s/=.*//" | sort' }, p.context())).split('\n');
    const shellOwn = ['PWD', 'SHLVL', '_', 'OLDPWD'];
    expect(names.filter((name) => !BASE_ENV_NAMES.includes(name) && !shellOwn.includes(name))).toEqual(['CLAUDE_PROJECT_DIR', 'MEWCODE_PROJECT_DIR', 'MEWCODE_TEST_EXTRA']);
    // The project's path, as hooks get it; named in the allowlist, the agent's own value does not win.
    process.env.CLAUDE_PROJECT_DIR = '/elsewhere';
    const named = await project({ settings: () => ({ envAllowlist: ['CLAUDE_PROJECT_DIR'] }) });
    expect((await named.tool.execute({ command: 'echo "$CLAUDE_PROJECT_DIR|$MEWCODE_PROJECT_DIR"' }, named.context())).content).toBe(`exit_code: 0\n${named.root}|${named.root}`);
  });
});

describe('output caps (T5, T8)', () => {
  async function catFile(content: string | Buffer) {
    const p = await project();
    const file = path.join(p.root, 'out.txt');
    await writeFile(file, content);
    return { p, result: await p.tool.execute({ command: `cat ${file}` }, p.context()) };
  }

  test('exactly 8000 bytes are shown whole; 8001 are cut and saved in full', async () => {
    const whole = await catFile('x'.repeat(8000));
    expect(whole.result.content).toBe(`exit_code: 0\n${'x'.repeat(8000)}`);
    expect(whole.result.content).not.toContain('omitted');

    const over = await catFile('x'.repeat(8001));
    expect(over.result.isError).toBe(false);
    expect(over.result.content).toMatch(MARKER);
    expect(over.result.content).toContain('[… 1 byte of a long line omitted: the output has 1 line (8001 bytes), more than the 200 lines / 8000 bytes shown');
    const [head, tail] = body(over.result).split(MARKER) as [string, string];
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(8000);
    expect(head).toBe('x'.repeat(2000));
    const spill = spillPathOf(over.result);
    // In the session's own folder, which no other session's tools or commands may read.
    expect(path.dirname(spill)).toBe(path.join(over.p.spillDir, 'session-test'));
    expect(await readFile(spill, 'utf8')).toBe('x'.repeat(8001));
    expect(over.result.content).toContain('read it with read_file (offset/limit) or search it with grep');
  });

  test('exactly 200 lines are shown whole; 201 keep the first 50 and the last 150', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
    const whole = await catFile(lines(200));
    expect(whole.result.content).toBe(`exit_code: 0\n${lines(200).slice(0, -1)}`);

    const over = await catFile(lines(201));
    expect(over.result.content).toContain('[… lines 51–51 (1 line, 8 bytes) omitted: the output has 201 lines (');
    const [head, tail] = body(over.result).split(MARKER) as [string, string];
    expect(head.split('\n')).toHaveLength(50);
    expect(head.endsWith('line 50')).toBe(true);
    expect(tail.split('\n')).toHaveLength(150);
    expect(tail.startsWith('line 52\n')).toBe(true);
    expect(tail.endsWith('line 201')).toBe(true);
    expect(await readFile(spillPathOf(over.result), 'utf8')).toBe(lines(201));
  });

  test('long output keeps at most 200 lines and 8000 bytes, head and tail on line boundaries', async () => {
    const content = Array.from({ length: 5000 }, (_, i) => `${String(i + 1).padStart(6, '0')} ${'.'.repeat(40)}\n`).join('');
    const { result } = await catFile(content);
    const [head, tail] = body(result).split(MARKER) as [string, string];
    expect(Buffer.byteLength(head) + 1 + Buffer.byteLength(tail)).toBeLessThanOrEqual(8000);
    expect(head.split('\n').length + tail.split('\n').length).toBeLessThanOrEqual(200);
    expect(head.startsWith('000001 ')).toBe(true);
    // The marker names the omitted line numbers, ready for read_file's offset.
    const range = /\[… lines (\d+)–(\d+) \((\d+) lines, \d+ bytes\) omitted/.exec(result.content);
    const headLines = head.split('\n').length;
    expect(range?.slice(1).map(Number)).toEqual([headLines + 1, 5000 - tail.split('\n').length, 5000 - headLines - tail.split('\n').length]);
    expect(tail.endsWith(`005000 ${'.'.repeat(40)}`)).toBe(true);
    for (const line of [...head.split('\n'), ...tail.split('\n')]) expect(line).toMatch(/^\d{6} \.{40}$/);
  });

  test('multibyte output is cut without splitting a character', async () => {
    for (const unit of ['é', '€', '😀']) {
      const { result } = await catFile(unit.repeat(5000));
      expect(result.content).toMatch(MARKER);
      expect(result.content).not.toContain('\uFFFD');
      const [head, tail] = body(result).split(MARKER) as [string, string];
      expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(8000);
      expect([...head].every((c) => c === unit)).toBe(true);
      expect([...tail].every((c) => c === unit)).toBe(true);
    }
  });

  test('a character split across two writes (pipe chunks) is joined, never replaced', async () => {
    const p = await project();
    const result = await p.tool.execute({ command: "printf '\\303'; sleep 0.1; printf '\\251' ; printf '\\360\\237' >&2; sleep 0.1; printf '\\230\\200' >&2" }, p.context());
    expect(result.content).toBe('exit_code: 0\né😀');
  });

  test('50 MB of output: bounded memory, small result, the spill file holds all of it', async () => {
    const p = await project();
    const rssBefore = process.resourceUsage().maxRSS;
    const result = await p.tool.execute({ command: 'yes | head -c 50000000' }, p.context());
    const rssGrowthKiB = process.resourceUsage().maxRSS - rssBefore;
    expect(result.isError).toBe(false);
    expect(result.content.length).toBeLessThan(9000);
    expect(result.content).toContain('the output has 25000000 lines (47.7 MiB)');
    expect((await stat(spillPathOf(result))).size).toBe(50_000_000);
    expect(rssGrowthKiB).toBeLessThan(64 * 1024);
  });

  test('the spill file is capped; the result says so and still shows the real end', async () => {
    const p = await project({ spillMaxBytes: 100_000 });
    const result = await p.tool.execute({ command: 'seq 1 200000' }, p.context());
    expect(result.content).toContain('Only its first');
    expect(result.content).toContain('saved output is capped at 100000 bytes');
    expect(result.content.endsWith('\n200000')).toBe(true);
    const saved = await readFile(spillPathOf(result), 'utf8');
    expect(saved.length).toBeLessThanOrEqual(100_000);
    expect(saved.length).toBeGreaterThan(99_000);
    expect(saved.endsWith('\n')).toBe(true); // cut on a line boundary
    expect(saved.startsWith('1\n2\n3\n')).toBe(true);
  });
});

describe('workdir', () => {
  test('inside the project: relative, absolute and nested', async () => {
    const p = await project();
    await mkdir(path.join(p.root, 'pkg', 'src'), { recursive: true });
    expect((await p.tool.execute({ command: 'pwd', workdir: 'pkg' }, p.context())).content).toBe(`exit_code: 0\n${path.join(p.root, 'pkg')}`);
    expect((await p.tool.execute({ command: 'pwd', workdir: path.join(p.root, 'pkg', 'src') }, p.context())).content).toBe(
      `exit_code: 0\n${path.join(p.root, 'pkg', 'src')}`,
    );
    expect((await p.tool.execute({ command: 'pwd', workdir: '.' }, p.context())).content).toBe(`exit_code: 0\n${p.root}`);
  });

  test('outside the project, nonexistent, or a file: refused with guidance, nothing runs', async () => {
    const p = await project();
    await writeFile(path.join(p.root, 'file.txt'), 'x');
    const outside = await p.tool.execute({ command: 'pwd', workdir: '..' }, p.context());
    expect(outside.isError).toBe(true);
    expect(outside.content).toContain('outside the project root');
    const absolute = await p.tool.execute({ command: 'pwd', workdir: '/' }, p.context());
    expect(absolute.content).toContain('outside the project root');
    const missing = await p.tool.execute({ command: 'pwd', workdir: 'nope/deeper' }, p.context());
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('does not exist');
    const file = await p.tool.execute({ command: 'pwd', workdir: 'file.txt' }, p.context());
    expect(file.content).toContain('is not a directory');
  });
});

describe('bad input (K1)', () => {
  test('each problem is an error result that names the field and what to send', async () => {
    const p = await project();
    const missing = await p.tool.execute({}, p.context());
    expect(missing).toEqual({ isError: true, content: expect.stringContaining('"command" is required') });
    expect((await p.tool.execute({ command: 42 }, p.context())).content).toContain('"command" must be a string');
    expect((await p.tool.execute({ command: '  ' }, p.context())).content).toContain('"command" is empty');
    expect((await p.tool.execute({ command: 'echo', timeout: 'soon' }, p.context())).content).toContain('"timeout" must be a number of milliseconds');
    expect((await p.tool.execute({ command: 'echo', timeout: 0 }, p.context())).content).toContain('"timeout" must be at least 1 ms');
    expect((await p.tool.execute({ command: 'echo', workdir: 7 }, p.context())).content).toContain('"workdir" must be a string');
    const quoted = await p.tool.execute({ command: 'echo fine', timeout: '2000' }, p.context());
    expect(quoted.content).toBe('exit_code: 0\nfine');
  });
});
