// The folders' boundaries, checked on the source: each folder is entered only through its index.ts, and
// arrows point inward (no inner folder imports an outer one). src/kernel/layers.test.ts adds the kernel's own rules.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC_DIR = dirname(fileURLToPath(import.meta.url));

/** What each folder may not import: the outer layers (and, for mcp, config: the server specs are mcp's own). */
const FORBIDDEN: Readonly<Record<string, readonly string[]>> = {
  kernel: ["cli", "selftest", "mcp", "model", "tools", "session", "config"],
  tools: ["cli", "selftest", "mcp", "model"],
  mcp: ["cli", "selftest", "config", "model", "tools", "session"],
  model: ["cli", "selftest", "mcp", "tools"],
  config: ["cli", "selftest"],
  session: ["cli", "selftest"],
};

type Import = { readonly specifier: string; readonly dynamic: boolean };

/** Every module specifier in `import … from "x"`, `export … from "x"`, `import("x")` and `import "x"`. */
function importsOf(source: string): Import[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*(\()\s*|\bimport\s+)["']([^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => ({ specifier: match[2] ?? "", dynamic: match[1] === "(" }));
}

/**
 * The problems of one file, `file` relative to src/. A static import into another folder must name that
 * folder's index.js (a test may also reach another folder's test-support); a dynamic import may go deep,
 * because that is how the composition root keeps start-up lazy.
 */
export function boundaryProblems(file: string, source: string): string[] {
  const ownFolder = file.includes("/") ? (file.split("/")[0] ?? "") : "";
  const isTest = file.endsWith(".test.ts") || file.includes("/test-support/");
  const problems: string[] = [];
  for (const { specifier, dynamic } of importsOf(source)) {
    if (!specifier.startsWith(".")) continue;
    const target = relative(".", join(dirname(file), specifier)).split("\\").join("/");
    const [folder = "", ...rest] = target.split("/");
    if (folder === ownFolder || rest.length === 0 || folder.startsWith("..")) continue;
    if ((FORBIDDEN[ownFolder] ?? []).includes(folder)) problems.push(`${file} imports ${specifier} (src/${folder} is an outer layer)`);
    else if (!dynamic && rest.join("/") !== "index.js" && !(isTest && rest[0] === "test-support")) {
      problems.push(`${file} imports ${specifier} (not through src/${folder}/index.ts)`);
    }
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [relative(SRC_DIR, path).split("\\").join("/")] : [];
  });
}

describe("the folders' boundaries", () => {
  it("are kept by every file in src", () => {
    // The layers tests are left out: their samples of forbidden imports are strings, not imports.
    const files = sourceFiles(SRC_DIR).filter((file) => !file.endsWith("layers.test.ts"));
    expect(files).toContain("main.ts");
    const problems = files.flatMap((file) => boundaryProblems(file, readFileSync(join(SRC_DIR, file), "utf8")));
    expect(problems).toEqual([]);
  });

  it("catch a deep import into another folder, from a folder or from main.ts", () => {
    expect(boundaryProblems("cli/chat.ts", 'import { x } from "../mcp/client.js";')).toEqual([
      "cli/chat.ts imports ../mcp/client.js (not through src/mcp/index.ts)",
    ]);
    expect(boundaryProblems("main.ts", 'export { y } from "./mcp/peer.js";')).toEqual(["main.ts imports ./mcp/peer.js (not through src/mcp/index.ts)"]);
    expect(boundaryProblems("selftest/run.ts", 'import "../mcp/http/exchange.js";')).toEqual([
      "selftest/run.ts imports ../mcp/http/exchange.js (not through src/mcp/index.ts)",
    ]);
  });

  it("catch an inner folder importing an outer one, even through its index", () => {
    expect(boundaryProblems("mcp/client.ts", 'import type { McpConfig } from "../config/index.js";')).toEqual([
      "mcp/client.ts imports ../config/index.js (src/config is an outer layer)",
    ]);
    expect(boundaryProblems("tools/bash.ts", 'const m = await import("../cli/index.js");')).toEqual([
      "tools/bash.ts imports ../cli/index.js (src/cli is an outer layer)",
    ]);
  });

  it("let a file import its own folder, another folder's index, a test its test-support, and main.ts load lazily", () => {
    expect(boundaryProblems("mcp/http/transport.ts", 'import { a } from "../peer.js";\nimport { b } from "./sse-reader.js";')).toEqual([]);
    expect(boundaryProblems("cli/chat.ts", 'import { McpError } from "../mcp/index.js";')).toEqual([]);
    expect(boundaryProblems("cli/chat.test.ts", 'import { s } from "../mcp/test-support/scripted-http-server.js";')).toEqual([]);
    expect(boundaryProblems("main.ts", 'const { runChat } = await import("./cli/chat.js");')).toEqual([]);
  });
});
