/**
 * The bash tool inside the OS sandbox (sandbox-os): what still works, and the process handling.
 * Where no sandbox can run, every test records a skip with the reason in the security tally
 * (printed at the end of the run) instead of passing silently.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { securityTally } from '../../security/attempts.js';
import { GIT_CONFIG, sandboxFixture, skipWithoutSandbox, type SandboxFixture } from '../sandbox-os/fixture.js';
import { readPid } from './helpers.js';
import { noLateOutput } from '../../support/tool-context.js';

const tally = securityTally('tool-bash-sandboxed');
afterAll(() => tally.save());

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await sandboxFixture();
});

/** Runs the body only where the sandbox is active; otherwise records why it could not. */
function sandboxed(name: string, body: () => Promise<void>, timeout?: number): void {
  test(
    name,
    async () => {
      if (skipWithoutSandbox(tally, name, fx.status)) return;
      await body();
    },
    timeout,
  );
}

sandboxed('writes inside the project succeed, in the working directory the call asked for', async () => {
  await mkdir(path.join(fx.root, 'src'));
  const result = await fx.tool.execute(
    { command: 'echo made > here.txt && pwd', workdir: 'src' },
    { signal: new AbortController().signal, projectRoot: fx.root, homeDir: fx.home, sessionId: 's', agentId: 'main', session: undefined as never, toolCallId: 'c1', lateOutput: noLateOutput },
  );
  expect(result).toMatchObject({ isError: false, content: `exit_code: 0\n${path.join(fx.root, 'src')}` });
  expect(await readFile(path.join(fx.root, 'src', 'here.txt'), 'utf8')).toBe('made\n');
});

sandboxed('a project under the host /tmp is still visible and writable (its bind comes after the private /tmp)', async () => {
  const underTmp = await sandboxFixture({ projectBase: os.tmpdir() });
  expect(underTmp.root.startsWith(await realpath(os.tmpdir()))).toBe(true);
  expect((await underTmp.run('echo ok > f.txt && cat f.txt')).content).toBe('exit_code: 0\nok');
  expect(await readFile(path.join(underTmp.root, 'f.txt'), 'utf8')).toBe('ok\n');
});

sandboxed('/tmp is private to the session: kept between calls, invisible on the host', async () => {
  const name = `mc-sbx-private-${process.pid}`;
  expect((await fx.run(`echo one > /tmp/${name} && cat /tmp/${name}`)).content).toBe('exit_code: 0\none');
  expect(existsSync(path.join('/tmp', name))).toBe(false);
  expect((await fx.run(`cat /tmp/${name}`)).content).toBe('exit_code: 0\none');
});

sandboxed('reading the project, git and the usual tools work; .git/config stays readable', async () => {
  const result = await fx.run('cat .git/config && ls -a | head -3 && echo ok');
  expect(result.content).toContain(GIT_CONFIG.trim().split('\n')[0]);
  expect(result.content).toContain('\nok');
});

sandboxed('missing protected paths leave nothing behind on the host after the call', async () => {
  await fx.run('ls -a > /dev/null');
  for (const name of ['.mcp.json', '.claude', '.mewcode.yaml', '.mewcode.yml', '.mewcode.json', '.git/config.worktree']) expect(existsSync(path.join(fx.root, name))).toBe(false);
});

sandboxed('a protected path that is a symbolic link: the command is not run, and the result says why', async () => {
  const other = await sandboxFixture();
  await symlink(path.join(other.root, 'elsewhere'), path.join(other.root, '.claude'));
  const result = await other.run('echo ran > ran.txt');
  expect(result.isError).toBe(true);
  expect(result.content).toContain('.claude is a symbolic link');
  expect(existsSync(path.join(other.root, 'ran.txt'))).toBe(false);
});

sandboxed('a timeout still stops the command and everything it started (SIGTERM to the bwrap group)', async () => {
  const pidFile = path.join(fx.root, 'inner.pid');
  // The inner sleep's host pid is unknown inside the PID namespace: find it by its command line.
  const started = Date.now();
  const result = await fx.run(`sleep 31.7 & echo $! > inner.pid; wait`, 600);
  expect(result.isError).toBe(true);
  expect(result.content).toContain('timed out after 600 ms');
  expect(Date.now() - started).toBeLessThan(4_000);
  await readPid(pidFile);
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline && pgrep('sleep 31.7')) await new Promise((r) => setTimeout(r, 50));
  expect(pgrep('sleep 31.7')).toBe(false);
}, 15_000);

sandboxed('a cancellation stops a command that ignores SIGTERM', async () => {
  const controller = new AbortController();
  const pending = fx.tool.execute(
    { command: "trap '' TERM; sleep 32.3; echo survived" },
    { signal: controller.signal, projectRoot: fx.root, homeDir: fx.home, sessionId: 's', agentId: 'main', session: undefined as never, toolCallId: 'c2', lateOutput: noLateOutput },
  );
  await new Promise((r) => setTimeout(r, 400));
  controller.abort();
  const result = await pending;
  expect(result.isError).toBe(true);
  expect(result.content).toContain('cancelled');
  const deadline = Date.now() + 4_000;
  while (Date.now() < deadline && pgrep('sleep 32.3')) await new Promise((r) => setTimeout(r, 50));
  expect(pgrep('sleep 32.3')).toBe(false);
}, 15_000);

sandboxed('background jobs end with the command inside the sandbox (nothing outlives it)', async () => {
  const result = await fx.run('(sleep 1; echo late > late.txt) & echo started');
  expect(result.content).toBe('exit_code: 0\nstarted');
  await new Promise((r) => setTimeout(r, 1_500));
  expect(existsSync(path.join(fx.root, 'late.txt'))).toBe(false);
}, 10_000);

sandboxed('sandbox: false in the user settings runs bash outside the sandbox, as before', async () => {
  const off = await sandboxFixture({ sandboxYaml: ' false' });
  expect(off.status).toMatchObject({ active: false, disabledByUser: true });
  expect(off.warnings).toEqual([]); // the user's own choice is not warned about
  const marker = path.join(off.outside, 'written-unsandboxed');
  expect((await off.run(`echo x > ${marker}`)).content).toBe('exit_code: 0\n(no output)');
  expect(readFileSync(marker, 'utf8')).toBe('x\n');
});

sandboxed('additional directories are writable; their .git/config is protected like the project\'s', async () => {
  const extra = await sandboxFixture();
  const fx2 = await sandboxFixture({ additionalDirectories: [extra.root] });
  await writeFile(path.join(extra.root, 'file.txt'), 'old\n');
  expect((await fx2.run(`echo new > ${extra.root}/file.txt`)).content).toBe('exit_code: 0\n(no output)');
  expect(await readFile(path.join(extra.root, 'file.txt'), 'utf8')).toBe('new\n');
  await fx2.run(`echo evil >> ${extra.root}/.git/config`);
  expect(await readFile(path.join(extra.root, '.git', 'config'), 'utf8')).toBe(GIT_CONFIG);
});

sandboxed('sandbox.network: true in the user settings lets commands reach the network', async () => {
  const server = net.createServer((socket) => socket.end('pong\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as net.AddressInfo).port;
    const online = await sandboxFixture({ sandboxYaml: '\n  network: true' });
    expect(online.status).toMatchObject({ active: true, network: true });
    expect((await online.run(`exec 3<>/dev/tcp/127.0.0.1/${port}; cat <&3`)).content).toBe('exit_code: 0\npong');
    expect((await fx.run(`exec 3<>/dev/tcp/127.0.0.1/${port}; cat <&3`)).content).not.toContain('pong');
  } finally {
    server.close();
  }
});

test('the sandbox status is probed once and cached', async () => {
  // The same object each time: a second probe would settle a new status.
  const first = fx.sandbox.status();
  expect(fx.sandbox.status()).toBe(first);
  expect(await fx.sandbox.probe()).toBe(first);
  if (!skipWithoutSandbox(tally, 'status when active', first)) expect(first.mechanism).toBe(process.platform === 'darwin' ? 'sandbox-exec' : 'bubblewrap');
});

function pgrep(pattern: string): boolean {
  try {
    execFileSync('pgrep', ['-f', `^${pattern.replace('.', '\\.')}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
