import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED, secretsIn, withoutModelKeys } from "./redaction.js";

describe("createRedactor", () => {
  it("replaces every occurrence of each secret, whatever its case", () => {
    const redact = createRedactor(["sk-SECRET-123", "tok(en)+"]);
    expect(redact("a sk-secret-123 b SK-SECRET-123 c tok(en)+ d")).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED} d`);
  });

  it("leaves short values and text without secrets alone", () => {
    const redact = createRedactor(["1", "true", "abcdef"]);
    expect(redact("true 1 abcde")).toBe("true 1 abcde");
    expect(createRedactor([])("anything")).toBe("anything");
  });

  it("prefers the longer secret when one contains another", () => {
    const redact = createRedactor(["secret", "secret-and-more"]);
    expect(redact("x secret-and-more y")).toBe(`x ${REDACTED} y`);
  });
});

describe("secretsIn", () => {
  it("lists each value and the long words inside it, so a token echoed without its scheme is found too", () => {
    expect(secretsIn(["Bearer tok-123456789", "plain-value"])).toEqual(["Bearer tok-123456789", "tok-123456789", "plain-value"]);
    expect(createRedactor(secretsIn(["Bearer tok-123456789"]))("got tok-123456789")).toBe(`got ${REDACTED}`);
  });
});

describe("withoutModelKeys", () => {
  it("drops the model's credential variables and unset values, and keeps the rest", () => {
    expect(withoutModelKeys({ PATH: "/bin", ANTHROPIC_API_KEY: "sk-1", ANTHROPIC_AUTH_TOKEN: "t", HOME: undefined })).toEqual({ PATH: "/bin" });
  });
});
