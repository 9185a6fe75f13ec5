/**
 * The seccomp program, read back and run by a small classic-BPF interpreter (the kernel's
 * semantics for the instructions it uses), for each architecture it knows; then the real thing:
 * bubblewrap installs it, and a refused call fails with EPERM while ordinary ones work.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs, sandboxLaunch, SECCOMP_FD } from '../../../plugins/sandbox-os/bwrap-args.js';
import { locateMechanism } from '../../../plugins/sandbox-os/probe.js';
import { seccompFilter, supportedArch, type FilterArch } from '../../../plugins/sandbox-os/seccomp-filter.js';

const AUDIT = { x64: 0xc000003e, arm64: 0xc00000b7, i386: 0x40000003 };
const NR = {
  x64: { read: 0, socket: 41, socketpair: 53, connect: 42, keyctl: 250, addKey: 248, requestKey: 249, ioUringSetup: 425 },
  arm64: { read: 63, socket: 198, socketpair: 199, connect: 203, keyctl: 219, addKey: 217, requestKey: 218, ioUringSetup: 425 },
};
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const KILL = 0x80000000;

/** Runs the program on one system call, as the kernel does: the return value. */
function evaluate(program: Buffer, call: { arch: number; nr: number; args?: number[] }): number {
  const data = Buffer.alloc(64);
  data.writeInt32LE(call.nr, 0);
  data.writeUInt32LE(call.arch, 4);
  (call.args ?? []).forEach((value, index) => data.writeBigUInt64LE(BigInt(value), 16 + index * 8));
  let accumulator = 0;
  for (let pc = 0; pc < program.length / 8; ) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      accumulator = data.readUInt32LE(k);
      pc++;
    } else if (code === 0x15) pc += 1 + (accumulator === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (accumulator >= k ? jt : jf);
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the program ran off its end');
}

describe.each(['x64', 'arm64'] as const)('the filter for %s', (arch: FilterArch) => {
  const nr = NR[arch];
  const deny = seccompFilter({ denyUnixSockets: true, arch });
  const keyringOnly = seccompFilter({ denyUnixSockets: false, arch });
  const call = (program: Buffer, number: number, args: number[] = []) => evaluate(program, { arch: AUDIT[arch], nr: number, args });

  test('keyctl, add_key, request_key and io_uring_setup fail with EPERM, with or without the socket rule', () => {
    for (const program of [deny, keyringOnly]) {
      for (const number of [nr.keyctl, nr.addKey, nr.requestKey, nr.ioUringSetup]) expect(call(program, number)).toBe(EPERM);
    }
  });

  test('socket(AF_UNIX) fails with EPERM unless unix sockets are allowed; other families and socketpair pass', () => {
    expect(call(deny, nr.socket, [1, 1, 0])).toBe(EPERM);
    expect(call(deny, nr.socket, [1, 0x80801, 0])).toBe(EPERM); // SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK
    expect(call(deny, nr.socket, [0x1_0000_0001, 1, 0])).toBe(EPERM); // the kernel reads an int: high bits ignored
    expect(call(keyringOnly, nr.socket, [1, 1, 0])).toBe(ALLOW);
    for (const family of [2, 10, 16]) expect(call(deny, nr.socket, [family, 1, 0])).toBe(ALLOW); // INET, INET6, NETLINK
    expect(call(deny, nr.socketpair, [1, 1, 0])).toBe(ALLOW);
  });

  test('ordinary calls pass', () => {
    for (const program of [deny, keyringOnly]) for (const number of [nr.read, nr.connect, 1, 2, 3, 59, 60, 231]) expect(call(program, number)).toBe(ALLOW);
  });

  test('a call from another ABI (32-bit x86, another architecture) kills the process: fail closed', () => {
    for (const program of [deny, keyringOnly]) {
      expect(evaluate(program, { arch: AUDIT.i386, nr: 102 })).toBe(KILL); // socketcall
      expect(evaluate(program, { arch: arch === 'x64' ? AUDIT.arm64 : AUDIT.x64, nr: 0 })).toBe(KILL);
    }
  });
});

test('x32 system calls (x86_64 numbers with bit 30 set) are killed', () => {
  const program = seccompFilter({ denyUnixSockets: true, arch: 'x64' });
  expect(evaluate(program, { arch: AUDIT.x64, nr: 0x40000000 + 41, args: [1, 1, 0] })).toBe(KILL);
  expect(evaluate(program, { arch: AUDIT.x64, nr: 0x40000000 })).toBe(KILL);
});

test('only x86_64 and aarch64 are known', () => {
  expect(supportedArch('x64')).toBe(true);
  expect(supportedArch('arm64')).toBe(true);
  for (const other of ['ia32', 'arm', 'riscv64', 'ppc64', 's390x']) expect(supportedArch(other)).toBe(false);
});

describe('installed by bubblewrap (this machine)', () => {
  const located = locateMechanism();
  const runs = located.ok && supportedArch(process.arch) && existsSync('/usr/bin/python3');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mc-seccomp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const sandboxed = (script: string, denyUnixSockets: boolean): string => {
    if (!located.ok) throw new Error('no bubblewrap');
    const file = path.join(dir, `filter-${denyUnixSockets}.bpf`);
    writeFileSync(file, seccompFilter({ denyUnixSockets }));
    const plan = { writable: [], pinned: [], readOnly: [], blocked: [], hiddenDirs: [], hiddenFiles: [] };
    const args = bwrapArgs({ plan, privateTmp: dir, emptyDir: dir, network: false, cwd: '/', argv: ['/usr/bin/python3', '-c', script], seccomp: true });
    expect(args.slice(args.indexOf('--seccomp'), args.indexOf('--seccomp') + 2)).toEqual(['--seccomp', String(SECCOMP_FD)]);
    const launch = sandboxLaunch(located.found.binary, args, file, '/bin/sh');
    const result = spawnSync(launch.file, launch.args, { encoding: 'utf8', timeout: 10_000 });
    return `${result.stdout}${result.stderr}`.trim();
  };

  const probe = `import socket, ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for family in (socket.AF_UNIX, socket.AF_INET):
    try:
        socket.socket(family).close(); print(family, 'ok')
    except OSError as error:
        print(family, error.errno)
a, b = socket.socketpair(); print('pair ok')
print('keyctl', libc.syscall(${process.arch === 'arm64' ? 219 : 250}, 0, -4, 0), ctypes.get_errno())
print('pid', os.getpid() > 0)`;

  test('unix sockets and the keyring refused with EPERM; inet sockets, socketpair and the rest work', () => {
    if (!runs) {
      if (process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error('bubblewrap, a known architecture and /usr/bin/python3 are required here (MEWCODE_REQUIRE_SANDBOX=1)');
      return;
    }
    expect(sandboxed(probe, true).split('\n')).toEqual([`${1} 1`, '2 ok', 'pair ok', 'keyctl -1 1', 'pid True']);
    expect(sandboxed(probe, false).split('\n')).toEqual(['1 ok', '2 ok', 'pair ok', 'keyctl -1 1', 'pid True']);
    // Outside, the same keyctl call succeeds (KEYCTL_GET_KEYRING_ID of the user keyring): the refusal above is the filter's.
    expect(execFileSync('/usr/bin/python3', ['-c', probe], { encoding: 'utf8' })).toMatch(/keyctl \d+ 0/);
  });
});
