/**
 * The sandbox's seccomp filter: a classic BPF program, built here as bytes (no native module), that
 * bubblewrap installs with `--seccomp FD` before it runs the command. It makes a few system calls
 * fail with EPERM, as Docker's default profile does for the same calls:
 *
 * - `keyctl`, `add_key`, `request_key`: the kernel keyring is not a file, so no mount hides it. The
 *   user keyring is shared by every process of the user (and the session keyring by the login):
 *   without this, a command could read a secret another program stored there (`keyctl print`).
 * - `socket(AF_UNIX, …)` unless the user allowed unix sockets: a unix socket is reached by path
 *   (`/var/run/docker.sock`, an SSH agent, `~/.colima/default/docker.sock`) or by an abstract name,
 *   and a read-only mount does not stop `connect()`. No list of mounts can find every socket on
 *   disk; refusing to create the client socket covers them all, abstract ones included.
 *   `socketpair()` stays allowed: it makes a connected pair inside the process (node and Python use
 *   it for their child processes' pipes) and cannot reach anything outside.
 * - `io_uring_setup`: io_uring can create sockets (IORING_OP_SOCKET) without the `socket` system
 *   call this filter sees. Programs that use io_uring fall back to ordinary calls (libuv does).
 *
 * The filter checks the architecture first. A system call from another ABI than the one it was
 * built for (32-bit x86 on an x86_64 kernel, where `socketcall` hides the socket family behind a
 * pointer, or the x32 numbers) kills the process: fail closed, never let it through unchecked.
 */

/** The architectures this filter knows, with their system call numbers (asm-generic for aarch64). */
const ARCHES = {
  x64: { audit: 0xc000003e, socket: 41, keyctl: 250, addKey: 248, requestKey: 249, ioUringSetup: 425 },
  arm64: { audit: 0xc00000b7, socket: 198, keyctl: 219, addKey: 217, requestKey: 218, ioUringSetup: 425 },
} as const;

export type FilterArch = keyof typeof ARCHES;

export function supportedArch(arch: string = process.arch): arch is FilterArch {
  return arch in ARCHES;
}

// Classic BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K = 0x06; // BPF_RET | BPF_K
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;
/** x32 system calls are x86_64's with this bit set. */
const X32_BIT = 0x40000000;

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6].
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** The low 32 bits of args[0] (little-endian): `socket`'s family. */
const OFFSET_ARG0_LOW = 16;

interface Instruction {
  code: number;
  jt: number;
  jf: number;
  k: number;
}

const stmt = (code: number, k: number): Instruction => ({ code, jt: 0, jf: 0, k });
const jump = (code: number, k: number, jt: number, jf: number): Instruction => ({ code, jt, jf, k });

export interface FilterOptions {
  /** Refuse socket(AF_UNIX): true unless the user allowed unix sockets. */
  denyUnixSockets: boolean;
  arch?: FilterArch;
}

/** The filter's instructions (exported for tests, which read them back). */
export function filterInstructions(options: FilterOptions): Instruction[] {
  const numbers = ARCHES[options.arch ?? (process.arch as FilterArch)];
  if (!numbers) throw new Error(`no seccomp filter for the ${process.arch} architecture`);
  const denied = [numbers.keyctl, numbers.addKey, numbers.requestKey, numbers.ioUringSetup];
  const program: Instruction[] = [stmt(LD_W_ABS, OFFSET_ARCH), jump(JEQ_K, numbers.audit, 1, 0), stmt(RET_K, RET_KILL_PROCESS), stmt(LD_W_ABS, OFFSET_NR)];
  if (options.arch === 'x64' || (options.arch === undefined && process.arch === 'x64')) {
    program.push(jump(JGE_K, X32_BIT, 0, 1), stmt(RET_K, RET_KILL_PROCESS));
  }
  // Each denied number jumps to the EPERM return at the end, past what lies between: the socket
  // check (4 instructions) and ALLOW, or ALLOW alone. Any other number falls through to them.
  const tail = options.denyUnixSockets ? 5 : 1;
  denied.forEach((nr, index) => program.push(jump(JEQ_K, nr, denied.length - 1 - index + tail, 0)));
  if (options.denyUnixSockets) {
    program.push(
      jump(JEQ_K, numbers.socket, 1, 0),
      stmt(RET_K, RET_ALLOW),
      stmt(LD_W_ABS, OFFSET_ARG0_LOW),
      jump(JEQ_K, AF_UNIX, 1, 0),
    );
  }
  program.push(stmt(RET_K, RET_ALLOW), stmt(RET_K, RET_ERRNO | EPERM));
  return program;
}

/** The program as `struct sock_filter[]` bytes (host byte order: both architectures are little-endian). */
export function seccompFilter(options: FilterOptions): Buffer {
  const program = filterInstructions(options);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(instruction.jt, index * 8 + 2);
    bytes.writeUInt8(instruction.jf, index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
