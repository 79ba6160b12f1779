import { describe, expect, it } from "vitest";
import { untrustedText } from "./untrusted-text.js";

describe("untrustedText", () => {
  it("shows escape sequences and other control characters as visible escapes", () => {
    expect(untrustedText("ok\u001b[2J\rgone\u009b")).toBe("ok\\u001b[2J\\u000dgone\\u009b");
  });

  it("keeps tabs, newlines and non-ASCII letters", () => {
    expect(untrustedText("a\tb\nÜmlaut ✓")).toBe("a\tb\nÜmlaut ✓");
  });
});
