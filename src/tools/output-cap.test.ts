import { describe, expect, it } from "vitest";
import { createOutputCap } from "./output-cap.js";

describe("createOutputCap", () => {
  it("keeps everything that fits in head and tail", () => {
    const cap = createOutputCap(4, 4);
    cap.push(Buffer.from("abc"));
    cap.push(Buffer.from("defgh"));
    expect(cap.text()).toBe("abcdefgh");
  });

  it("keeps the first and last bytes and counts what it left out", () => {
    const cap = createOutputCap(3, 3);
    for (const chunk of ["ab", "cdef", "ghij", "kl"]) cap.push(Buffer.from(chunk));
    expect(cap.text()).toBe("abc\n[… 6 bytes of output left out …]\njkl");
  });

  it("does not split a character that straddles head and tail when nothing was left out", () => {
    const cap = createOutputCap(1, 8);
    cap.push(Buffer.from("é!"));
    expect(cap.text()).toBe("é!");
  });
});
