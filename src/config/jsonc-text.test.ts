import { describe, expect, it } from "vitest";
import { readConfigJson, ConfigError } from "./config-reader.js";
import { withoutJsoncExtras } from "./jsonc-text.js";

describe("withoutJsoncExtras", () => {
  it("blanks line and block comments and trailing commas, keeping every other character in its place", () => {
    const text = '{\n  // a server\n  "a": [1, 2,], /* why */\n  "b": "x // not a comment",\n}\n';
    expect(withoutJsoncExtras(text)).toBe('{\n             \n  "a": [1, 2 ],          \n  "b": "x // not a comment" \n}\n');
  });

  it("leaves a comma before a comment and then a closing brace out as trailing", () => {
    expect(withoutJsoncExtras('{"a": 1, // last\n}')).toBe('{"a": 1         \n}');
  });

  it("keeps positions, so an error after a comment is reported where it was written", () => {
    const error = readConfigJson(withoutJsoncExtras('{\n  /* c */ "a": tru\n}'), "f.json");
    expect(error instanceof ConfigError ? error.message : "parsed").toMatch(/^f\.json:2:/);
  });

  it("returns plain JSON unchanged", () => {
    expect(withoutJsoncExtras('{"a": [1, 2]}')).toBe('{"a": [1, 2]}');
  });
});
