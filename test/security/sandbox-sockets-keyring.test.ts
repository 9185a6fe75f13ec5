/**
 * Adversarial, end to end through the built CLI: sandboxed bash tries to reach host daemons over
 * unix sockets (a Docker socket in the home, an SSH agent named by SSH_AUTH_SOCK, a socket under
 * /var/tmp, an abstract socket) and to read a secret from the kernel keyring. Each socket is a
 * real server on the host that logs what it receives; escaped = it received anything (or the
 * client printed its reply). The keyring secret is escaped when it reaches a model request.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { skipWithoutSandbox } from '../plugins/sandbox-os/fixture.js';
import { prepareCli } from '../cli/helpers.js';
import { securityTally } from './attempts.js';
import { assertSandboxed, cliSandboxDirs, resultOf, runBashCalls, sandboxStatus, type BashRun, type CliSandboxDirs } from './cli-sandbox-harness.js';

const tally = securityTally('sandbox-sockets-keyring');
afterAll(() => tally.save());

const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
/** keyctl, add_key and request_key by architecture (the sandbox's filter knows these two). */
const SYSCALLS = process.arch === 'arm64' ? { keyctl: 219, addKey: 217, requestKey: 218 } : { keyctl: 250, addKey: 248, requestKey: 249 };

interface Target {
  name: string;
  /** Where the server listens (a leading NUL: an abstract socket). */
  address: string;
  received: string[];
  server?: net.Server;
}

const servers: Target[] = [];

/**
 * An abstract socket's server, in Python: node (libuv) binds abstract names with a length other
 * clients do not use. It writes what it receives, one line each, to `log`; a test reads it back.
 */
const ABSTRACT_SERVER = `import socket,sys,threading
srv=socket.socket(socket.AF_UNIX);srv.bind(sys.argv[1].replace('@','\\0',1));srv.listen(16)
print('ready',flush=True)
def serve(c):
  with open(sys.argv[2],'a') as log: log.write('(connection)\\n')
  try:
    c.settimeout(2);d=c.recv(64)
    with open(sys.argv[2],'a') as log: log.write(d.decode('utf8','replace')+'\\n')
  except Exception: pass
  c.sendall(b'PONG-FROM-HOST\\n');c.close()
while True:
  c,_=srv.accept();threading.Thread(target=serve,args=(c,),daemon=True).start()`;

async function listenAbstract(name: string, address: string, log: string): Promise<Target> {
  writeFileSync(log, '');
  const child = spawn(PY, ['-c', ABSTRACT_SERVER, shown(address), log], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the abstract socket server exited (${code})`)));
  });
  const target = {
    name,
    address,
    get received(): string[] {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean);
    },
    set received(_value: string[]) {
      writeFileSync(log, '');
    },
  } as Target;
  abstractServers.push(child);
  return target;
}
const abstractServers: ChildProcess[] = [];
afterAll(() => {
  for (const child of abstractServers) child.kill('SIGKILL');
});

async function listen(name: string, address: string): Promise<Target> {
  const target: Target = { name, address, received: [] };
  mkdirSync(path.dirname(address), { recursive: true });
  target.server = net.createServer((socket) => {
    target.received.push('(connection)');
    socket.on('data', (chunk) => target.received.push(chunk.toString('utf8').slice(0, 60)));
    socket.on('error', () => undefined);
    socket.end('PONG-FROM-HOST\n');
  });
  await new Promise<void>((resolve, reject) => target.server!.once('error', reject).listen(address, resolve));
  servers.push(target);
  return target;
}

afterAll(async () => {
  await Promise.all(servers.map((target) => new Promise((resolve) => target.server?.close(resolve))));
});

/** Perl run from a file written in the sandbox's /tmp (the text passes the command analysers unparsed, as a file would). */
let perlFiles = 0;
const perlScript = (script: string, args: string): string => {
  const file = `/tmp/client-${++perlFiles}.pl`;
  return `echo ${Buffer.from(`use IO::Socket::UNIX;\n${script}\n`).toString('base64')} | base64 -d > ${file}; perl ${file} ${args}`;
};

/** One client per way of connecting; each sends its own name first, so the host log says who got through. */
const CLIENTS: Record<string, (address: string) => string> = {
  python: (a) => `${PY} -c "import socket,sys;s=socket.socket(socket.AF_UNIX);s.settimeout(3);s.connect(sys.argv[1].replace('@','\\0',1));s.send(b'python');print(s.recv(64))" '${a}'`,
  curl: (a) => `curl -s -m 3 ${a.startsWith('@') ? `--abstract-unix-socket '${a.slice(1)}'` : `--unix-socket '${a}'`} http://localhost/curl`,
  node: (a) => `node -e "const s=require('net').connect(process.argv[1].replace('@','\\0'));s.on('connect',()=>s.write('node'));s.on('data',d=>{console.log(String(d));s.end()});s.on('error',e=>console.log(e.code))" '${a}'`,
  perl: (a) => perlScript('my $p = shift; $p =~ s/^@/\\0/; my $c = IO::Socket::UNIX->new(Peer => $p) or die "refused: $!\\n"; $c->send("perl"); $c->recv(my $r, 64); print $r;', `'${a}'`),
};

/** `@name` in a command stands for the abstract address `\0name` (replaced by each client). */
const shown = (address: string): string => (address.startsWith('\0') ? `@${address.slice(1)}` : address);

let dirs: CliSandboxDirs;
let netDirs: CliSandboxDirs;
let allowDirs: CliSandboxDirs;
let status: Awaited<ReturnType<typeof sandboxStatus>>;
let targets: Target[] = [];
let run: BashRun | undefined;
let netRun: BashRun | undefined;
let allowRun: BashRun | undefined;
let keyId = 0;
const KEY_SECRET = `MCKEYRING-SECRET-${process.pid}`;
let allowed: Target;
const hostReplies: string[] = [];
const execFileAsync = promisify(execFile);
let hiddenWhileAllowed: Target;

/** Adds a key to the user keyring from the host (as `keyctl add user … @u` would); its id. */
function addHostKey(): number {
  const script = `import ctypes,sys\nlibc=ctypes.CDLL(None,use_errno=True);libc.syscall.restype=ctypes.c_long\np=sys.argv[1].encode()\nprint(libc.syscall(${SYSCALLS.addKey},b'user',b'mewcode-sandbox-test',p,len(p),ctypes.c_int(-4)))`;
  return Number(execFileSync(PY, ['-c', script, KEY_SECRET], { encoding: 'utf8' }).trim());
}

function revokeHostKey(id: number): void {
  if (id > 0) execFileSync(PY, ['-c', `import ctypes;ctypes.CDLL(None).syscall(${SYSCALLS.keyctl},3,ctypes.c_long(${id}))`]);
}

const sq = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/** Keyring reads from inside: by search in the user keyring, by id, after joining a new session keyring, via request_key, from perl. */
function keyringAttempts(id: number): { id: string; command: string }[] {
  const prelude = 'import ctypes,os\nlibc=ctypes.CDLL(None,use_errno=True);libc.syscall.restype=ctypes.c_long\nbuf=ctypes.create_string_buffer(256)\n';
  const read = (expr: string) => `k=${expr}\nn=libc.syscall(${SYSCALLS.keyctl},11,ctypes.c_long(k),buf,256)\nprint(k,n,buf.value,os.strerror(ctypes.get_errno()))\n`;
  const py = (body: string) => `${PY} -c ${sq(prelude + body)}`;
  const search = `libc.syscall(${SYSCALLS.keyctl},10,ctypes.c_long(-4),b'user',b'mewcode-sandbox-test',0)`;
  return [
    { id: 'key_search_user', command: py(read(search)) },
    { id: 'key_read_by_id', command: py(read(String(id))) },
    { id: 'key_join_session_then_search', command: py(`libc.syscall(${SYSCALLS.keyctl},1,None)\n${read(search)}`) },
    { id: 'key_request_key', command: py(read(`libc.syscall(${SYSCALLS.requestKey},b'user',b'mewcode-sandbox-test',None,ctypes.c_long(-4))`)) },
    { id: 'key_perl', command: perlScript(`my $b = "\\0" x 256; my $n = syscall(${SYSCALLS.keyctl}, 11, ${id}, $b, 256); print "$n $b\\n";`, '') },
    { id: 'key_proc_keys', command: 'cat /proc/keys /proc/key-users 2>&1 | head -20' },
  ];
}

beforeAll(async () => {
  await prepareCli();
  dirs = cliSandboxDirs();
  netDirs = cliSandboxDirs({ sandboxYaml: '\n  network: true' });
  status = await sandboxStatus(dirs.home);
  if (!status.active) return;
  const tag = `${process.pid}`;
  targets = [
    await listen('a Docker socket in the home (Colima)', path.join(dirs.home, '.colima', 'default', 'docker.sock')),
    await listen('a socket in the home on no list', path.join(dirs.home, 'dev', 'app.sock')),
    await listen('an SSH agent named by SSH_AUTH_SOCK', path.join(dirs.outside, `ssh-${tag}`, 'agent.1')),
    await listen('a daemon socket under /var/tmp', path.join(dirs.outside, 'daemon.sock')),
    await listenAbstract('an abstract socket', `\0mewcode-test-abstract-${tag}`, path.join(dirs.base, 'abstract.log')),
  ];
  // Each server answers a client on the host (so silence inside means something); then their logs start empty.
  for (const target of targets) {
    const { stdout } = await execFileAsync(PY, ['-c', `import socket,sys;s=socket.socket(socket.AF_UNIX);s.settimeout(5);s.connect(sys.argv[1].replace('@','\\0',1));print(s.recv(64).decode())`, shown(target.address)], { timeout: 10_000 });
    hostReplies.push(stdout.trim());
    target.received = [];
  }
  allowDirs = cliSandboxDirs();
  allowed = await listen('the socket the user allowed', path.join(allowDirs.outside, 'allowed.sock'));
  hiddenWhileAllowed = await listen('a Docker socket in the home while another is allowed', path.join(allowDirs.home, '.colima', 'default', 'docker.sock'));
  writeFileSync(path.join(allowDirs.home, '.mewcode', 'settings.yaml'), `sandbox:\n  allow_unix_sockets: [${JSON.stringify(allowed.address)}]\n`);
  keyId = addHostKey();
  const calls = Object.entries(CLIENTS).flatMap(([client, command]) => targets.map((target, index) => ({ id: `${client}_${index}`, command: command(shown(target.address)) })));
  const sshEnv = { SSH_AUTH_SOCK: targets[2]!.address };
  run = await runBashCalls(dirs, [...calls, { id: 'ssh_add', command: 'ssh-add -l 2>&1; echo "ssh-add=$?"' }, ...keyringAttempts(keyId)], sshEnv);
  netRun = await runBashCalls(netDirs, [
    { id: 'net_python_abstract', command: CLIENTS.python!(shown(targets[4]!.address)) },
    { id: 'net_python_home', command: CLIENTS.python!(shown(targets[1]!.address)) },
    { id: 'net_curl_var_tmp', command: CLIENTS.curl!(shown(targets[3]!.address)) },
  ]);
  allowRun = await runBashCalls(allowDirs, [
    { id: 'allowed', command: CLIENTS.python!(allowed.address) },
    { id: 'hidden_while_allowed', command: CLIENTS.python!(hiddenWhileAllowed.address) },
  ]);
}, 180_000);

afterAll(() => {
  revokeHostKey(keyId);
  for (const d of [dirs, netDirs, allowDirs]) d?.cleanup();
});

test('the host servers answer from outside the sandbox (so silence inside means something)', () => {
  if (skipWithoutSandbox(tally, 'sandbox-sockets-keyring', status, 30)) return;
  expect(hostReplies).toEqual(targets.map(() => 'PONG-FROM-HOST'));
  assertSandboxed(run!, 'python_0');
  expect(keyId).toBeGreaterThan(0);
});

describe('unix sockets outside the project are unreachable (network off)', () => {
  const cases = Object.keys(CLIENTS).flatMap((client) => [0, 1, 2, 3, 4].map((index) => [client, index] as const));
  test.each(cases)('%s → target %i', (client, index) => {
    if (!status.active) return;
    const target = targets[index]!;
    const output = resultOf(run!, `${client}_${index}`);
    const escaped = target.received.some((line) => line.includes(client)) || output.includes('PONG-FROM-HOST');
    // The call ran in the sandbox (a permission layer's refusal would prove nothing).
    expect(output).toMatch(/^exit_code: /);
    tally.attempt(`${client} connects to ${target.name}`, escaped);
    expect({ client, target: target.name, escaped, output: escaped ? output : '' }).toEqual({ client, target: target.name, escaped: false, output: '' });
  });

  test('ssh-add cannot talk to the SSH agent SSH_AUTH_SOCK names', () => {
    if (!status.active) return;
    const output = resultOf(run!, 'ssh_add');
    const escaped = targets[2]!.received.length > 0 || /ssh-add=0/.test(output);
    tally.attempt('ssh-add reaches the agent socket', escaped);
    expect({ escaped, output: escaped ? output : '' }).toEqual({ escaped: false, output: '' });
  });

  test('no server saw a single connection', () => {
    if (!status.active) return;
    expect(targets.map((target) => [target.name, target.received])).toEqual(targets.map((target) => [target.name, []]));
  });
});

describe("with the user's network: true (no network namespace), unix sockets stay unreachable", () => {
  test.each([
    ['net_python_abstract', 4],
    ['net_python_home', 1],
    ['net_curl_var_tmp', 3],
  ] as const)('%s', (id, index) => {
    if (!status.active) return;
    const output = resultOf(netRun!, id);
    const escaped = output.includes('PONG-FROM-HOST') || targets[index]!.received.length > 0;
    tally.attempt(`network on: ${id}`, escaped);
    expect({ id, escaped, output: escaped ? output : '' }).toEqual({ id, escaped: false, output: '' });
  });
});

describe('sandbox.allow_unix_sockets', () => {
  test('control: the socket the user allowed by path is reachable', () => {
    if (!status.active) return;
    expect(resultOf(allowRun!, 'allowed')).toContain('PONG-FROM-HOST');
    expect(allowed.received).toContain('python');
  });

  test('a socket in a hidden place (the credential list) stays unreachable while another is allowed', () => {
    if (!status.active) return;
    const output = resultOf(allowRun!, 'hidden_while_allowed');
    const escaped = output.includes('PONG-FROM-HOST') || hiddenWhileAllowed.received.length > 0;
    tally.attempt('allowed mode: the Colima socket in the home', escaped);
    expect(escaped).toBe(false);
  });
});

describe('the kernel keyring is not readable', () => {
  test.each(['key_search_user', 'key_read_by_id', 'key_join_session_then_search', 'key_request_key', 'key_perl', 'key_proc_keys'])('%s', (id) => {
    if (!status.active) return;
    const output = resultOf(run!, id);
    expect(output).toMatch(/^exit_code: /); // it ran in the sandbox
    const escaped = output.includes(KEY_SECRET);
    tally.attempt(`keyring: ${id}`, escaped);
    expect({ id, escaped, output: escaped ? output : '' }).toEqual({ id, escaped: false, output: '' });
  });

  test('the secret reached no model request at all', () => {
    if (!status.active) return;
    expect(run!.sent.includes(KEY_SECRET)).toBe(false);
  });

  test('control: the key is readable on the host (the attempts above could have succeeded)', () => {
    if (!status.active) return;
    const script = `import ctypes\nlibc=ctypes.CDLL(None,use_errno=True);libc.syscall.restype=ctypes.c_long\nb=ctypes.create_string_buffer(256)\nlibc.syscall(${SYSCALLS.keyctl},11,ctypes.c_long(${keyId}),b,256)\nprint(b.value.decode())`;
    expect(execFileSync(PY, ['-c', script], { encoding: 'utf8' }).trim()).toBe(KEY_SECRET);
  });
});
