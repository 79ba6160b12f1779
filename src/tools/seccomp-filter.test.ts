import { describe, expect, it } from "vitest";
import { unixSocketFilter } from "./seccomp-filter.js";

/** The program as `[code, jt, jf, k]` rows, k in hex. */
function rows(program: Buffer | null): unknown {
  if (program === null) return null;
  const decoded: Array<[number, number, number, string]> = [];
  for (let at = 0; at < program.length; at += 8) {
    decoded.push([program.readUInt16LE(at), program.readUInt8(at + 2), program.readUInt8(at + 3), program.readUInt32LE(at + 4).toString(16)]);
  }
  return decoded;
}

describe("unixSocketFilter", () => {
  it("on x86_64 refuses socket(AF_UNIX), io_uring, x32 and other ABIs with EPERM and allows the rest", () => {
    expect(rows(unixSocketFilter("x64"))).toEqual([
      [0x20, 0, 0, "4"], // load arch
      [0x15, 0, 6, "c000003e"], // AUDIT_ARCH_X86_64, else deny
      [0x20, 0, 0, "0"], // load nr
      [0x35, 4, 0, "40000000"], // x32 numbers: deny
      [0x15, 3, 0, "1a9"], // io_uring_setup: deny
      [0x15, 0, 3, "29"], // socket, else allow
      [0x20, 0, 0, "10"], // load args[0], low word
      [0x15, 0, 1, "1"], // AF_UNIX: deny, else allow
      [0x06, 0, 0, "50001"], // SECCOMP_RET_ERRNO | EPERM
      [0x06, 0, 0, "7fff0000"], // SECCOMP_RET_ALLOW
    ]);
  });

  it("on aarch64 checks its own arch value and socket number", () => {
    expect(rows(unixSocketFilter("arm64"))).toEqual([
      [0x20, 0, 0, "4"],
      [0x15, 0, 6, "c00000b7"], // AUDIT_ARCH_AARCH64, else deny
      [0x20, 0, 0, "0"],
      [0x35, 4, 0, "40000000"],
      [0x15, 3, 0, "1a9"],
      [0x15, 0, 3, "c6"], // socket, else allow
      [0x20, 0, 0, "10"],
      [0x15, 0, 1, "1"],
      [0x06, 0, 0, "50001"],
      [0x06, 0, 0, "7fff0000"],
    ]);
  });

  it("has none for another architecture", () => {
    expect([unixSocketFilter("ia32"), unixSocketFilter("riscv64")]).toEqual([null, null]);
  });
});
