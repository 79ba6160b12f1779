import { describe, expect, it } from "vitest";
import { ConfigError, expandVariables, formatPath, referencedVariables } from "./config-reader.js";

describe("formatPath", () => {
  it("joins plain keys with dots and writes indexes in brackets", () => {
    expect(formatPath(["mcpServers", "my-server", "args", 0])).toBe("mcpServers.my-server.args[0]");
  });

  it("quotes a key that is not plain", () => {
    expect(formatPath(["mcpServers", "my.server", "url"])).toBe('mcpServers["my.server"].url');
  });

  it("is empty at the root", () => {
    expect(formatPath([])).toBe("");
  });
});

describe("ConfigError", () => {
  it("prints file, position, path and detail in its message", () => {
    const error = new ConfigError("a.json", "mcpServers.x.url", "must be an http:// or https:// URL", { line: 3, column: 9 });
    expect(error.message).toBe("a.json:3:9: mcpServers.x.url: must be an http:// or https:// URL");
    expect(error.name).toBe("ConfigError");
  });

  it("leaves out what it does not know", () => {
    expect(new ConfigError("a.json", "", "cannot read the file").message).toBe("a.json: cannot read the file");
  });
});

describe("expandVariables", () => {
  it("replaces ${VAR} with the variable's value, as often as it appears", () => {
    expect(expandVariables("${A}-${B}/${A}", { A: "1", B: "two" })).toEqual({ ok: true, value: "1-two/1" });
  });

  it("leaves text without references, and a $ not followed by {, as it is", () => {
    expect(expandVariables("cost $5 and $HOME", {})).toEqual({ ok: true, value: "cost $5 and $HOME" });
  });

  it("uses the default of ${VAR:-default} when the variable is unset", () => {
    expect(expandVariables("127.0.0.1:${PORT:-3115}", {})).toEqual({ ok: true, value: "127.0.0.1:3115" });
  });

  it("uses the default of ${VAR:-default} when the variable is empty, as the shell does", () => {
    expect(expandVariables("${PORT:-3115}", { PORT: "" })).toEqual({ ok: true, value: "3115" });
  });

  it("prefers the variable's value over the default", () => {
    expect(expandVariables("${PORT:-3115}", { PORT: "4000" })).toEqual({ ok: true, value: "4000" });
  });

  it("accepts an empty default", () => {
    expect(expandVariables("a${X:-}b", {})).toEqual({ ok: true, value: "ab" });
  });

  it("keeps an empty value of ${VAR} (it is set)", () => {
    expect(expandVariables("a${X}b", { X: "" })).toEqual({ ok: true, value: "ab" });
  });

  it("does not expand references inside a variable's value", () => {
    expect(expandVariables("${A}", { A: "${B}", B: "no" })).toEqual({ ok: true, value: "${B}" });
  });

  it("names a variable that is not set", () => {
    expect(expandVariables("Bearer ${TICKETS_TOKEN}", {})).toEqual({ ok: false, reason: "variable TICKETS_TOKEN is not set" });
  });

  it("does not find variables on the environment object's prototype", () => {
    expect(expandVariables("${constructor}", {})).toEqual({ ok: false, reason: "variable constructor is not set" });
  });

  it("rejects a reference that is never closed", () => {
    expect(expandVariables("ab${X", { X: "1" })).toEqual({ ok: false, reason: '"${" at character 3 is never closed with "}"' });
  });

  it("rejects a reference whose name is not a variable name", () => {
    expect(expandVariables("${1X}", {})).toEqual({
      ok: false,
      reason: '"${1X}" is not a variable reference (write ${NAME}, ${NAME:-default} or ${env:NAME})',
    });
  });
});

describe("referencedVariables", () => {
  it("names each variable a string refers to, with or without a default, and nothing else", () => {
    expect(referencedVariables("Bearer ${GITHUB_TOKEN} ${PORT:-3115} $HOME ${1X} ${A}${B:-${C}")).toEqual(["GITHUB_TOKEN", "PORT", "A", "B"]);
  });
});
