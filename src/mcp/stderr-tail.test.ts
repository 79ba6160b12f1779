import { describe, expect, it } from "vitest";
import { createStderrTail } from "./stderr-tail.js";

describe("createStderrTail", () => {
  it("keeps what the server wrote, without the trailing newline", () => {
    const tail = createStderrTail();
    tail.append(Buffer.from("starting\n"));
    tail.append(Buffer.from("fatal: no config\n"));
    expect(tail.text()).toBe("starting\nfatal: no config");
  });

  it("keeps only the last lines", () => {
    const tail = createStderrTail(1000, 2);
    tail.append(Buffer.from("one\ntwo\nthree\nfour\n"));
    expect(tail.text()).toBe("three\nfour");
  });

  it("keeps only the last characters", () => {
    const tail = createStderrTail(5, 40);
    tail.append(Buffer.from("abcdefghij"));
    expect(tail.text()).toBe("fghij");
  });

  it("decodes a character split across chunks", () => {
    const tail = createStderrTail();
    const bytes = Buffer.from("ü!");
    tail.append(bytes.subarray(0, 1));
    tail.append(bytes.subarray(1));
    expect(tail.text()).toBe("ü!");
  });
});
