import { describe, expect, it } from "vitest";
import { ConfigError, formatPath } from "./config-error.js";

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
