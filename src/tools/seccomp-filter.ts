// The seccomp filter bubblewrap installs (`--seccomp FD`) when a command has no network: a unix socket
// file (an ssh ControlMaster, gpg-agent, docker.sock) is reachable in a private network namespace, so
// `socket(AF_UNIX, …)` fails with EPERM instead. `socketpair` stays allowed: its sockets reach nothing.
// The program is classic BPF over `struct seccomp_data` (https://docs.kernel.org/userspace-api/seccomp_filter.html).

/** Per architecture (Node's `process.arch`): its AUDIT_ARCH_* value and its system-call numbers. */
const ARCHITECTURES: Readonly<Record<string, { readonly audit: number; readonly socket: number; readonly ioUringSetup: number }>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425 },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

/** Byte offsets in `struct seccomp_data`: `int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6];` (little-endian). */
const SECCOMP_DATA = { nr: 0, arch: 4, arg0Low: 16 };
/** The BPF opcodes used: load a word at an offset, jump if equal / greater or equal to k, return k. */
const BPF = { loadWord: 0x20, jump: { equal: 0x15, atLeast: 0x35 }, return: 0x06 };
const SECCOMP_RET = { allow: 0x7fff_0000, errno: 0x0005_0000 };
const EPERM = 1;
const AF_UNIX = 1;
/** On x86_64, x32 programs call with this bit set in the number, under the same AUDIT_ARCH value. */
const X32_SYSCALL_BIT = 0x4000_0000;

type Target = "next" | "deny" | "allow";
type Instruction =
  | { readonly load: number }
  | { readonly jump: keyof typeof BPF.jump; readonly k: number; readonly ifTrue: Target; readonly ifFalse: Target };

/** Whether mca has the program for `arch`, without building it. */
export function hasUnixSocketFilter(arch: string): boolean {
  return ARCHITECTURES[arch] !== undefined;
}

/** The program for `arch`, 8 bytes an instruction (u16 code, u8 jt, u8 jf, u32 k); null for an architecture mca has none for. */
export function unixSocketFilter(arch: string): Buffer | null {
  const numbers = ARCHITECTURES[arch];
  if (numbers === undefined) return null;
  const body: Instruction[] = [
    { load: SECCOMP_DATA.arch },
    // A system call of another ABI (32-bit x86 or ARM on a 64-bit kernel) has numbers of its own: refused.
    { jump: "equal", k: numbers.audit, ifTrue: "next", ifFalse: "deny" },
    { load: SECCOMP_DATA.nr },
    { jump: "atLeast", k: X32_SYSCALL_BIT, ifTrue: "deny", ifFalse: "next" },
    // io_uring can open a socket too (IORING_OP_SOCKET), out of this filter's sight; programs fall back without it.
    { jump: "equal", k: numbers.ioUringSetup, ifTrue: "deny", ifFalse: "next" },
    { jump: "equal", k: numbers.socket, ifTrue: "next", ifFalse: "allow" },
    // The domain is an int: the low word of the first argument.
    { load: SECCOMP_DATA.arg0Low },
    { jump: "equal", k: AF_UNIX, ifTrue: "deny", ifFalse: "allow" },
  ];
  const deny = body.length;
  const allow = body.length + 1;
  const offset = (from: number, target: Target): number => (target === "next" ? 0 : (target === "deny" ? deny : allow) - from - 1);
  const words = body.map((instruction, index) =>
    "load" in instruction
      ? encode(BPF.loadWord, 0, 0, instruction.load)
      : encode(BPF.jump[instruction.jump], offset(index, instruction.ifTrue), offset(index, instruction.ifFalse), instruction.k),
  );
  return Buffer.concat([...words, encode(BPF.return, 0, 0, SECCOMP_RET.errno | EPERM), encode(BPF.return, 0, 0, SECCOMP_RET.allow)]);
}

function encode(code: number, jumpIfTrue: number, jumpIfFalse: number, k: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt16LE(code, 0);
  bytes.writeUInt8(jumpIfTrue, 2);
  bytes.writeUInt8(jumpIfFalse, 3);
  bytes.writeUInt32LE(k >>> 0, 4);
  return bytes;
}
