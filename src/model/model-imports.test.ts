import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("the model folder's imports", () => {
  const sources = readdirSync(new URL(".", import.meta.url))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .map((name) => ({ name, text: readFileSync(new URL(name, import.meta.url), "utf8") }));

  it("imports the Anthropic SDK statically only for types, so it loads on the first request", () => {
    const valueImports = sources.flatMap(({ name, text }) =>
      text
        .split("\n")
        .filter((line) => /^import .*@anthropic-ai\/sdk/.test(line) && !line.startsWith("import type"))
        .map((line) => `${name}: ${line}`),
    );
    expect(sources.some(({ text }) => text.includes('import("@anthropic-ai/sdk")'))).toBe(true);
    expect(valueImports).toEqual([]);
  });

  it("keeps the mock and scripted models free of anything Anthropic", () => {
    const offline = sources.filter(({ name }) => name === "mock-model.ts" || name === "scripted-model.ts");
    expect(offline).toHaveLength(2);
    expect(offline.filter(({ text }) => /anthropic/i.test(text.replace(/^\/\/.*$/gm, "")))).toEqual([]);
  });
});
