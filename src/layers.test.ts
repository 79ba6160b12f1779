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
function boundaryProblems(file: string, source: string): string[] {
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

/** The file a relative specifier of `file` names, relative to src/ (`./peer.js` → `mcp/peer.ts`); undefined for a package. */
function importedFile(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return relative(".", join(dirname(file), specifier)).split("\\").join("/").replace(/\.js$/, ".ts");
}

/**
 * The import circles among `sources` (file relative to src/ → its text): each strongly connected group of
 * two or more files, or a file importing itself, as its files in order. Type-only imports count: a reader
 * must still read both files to understand either.
 */
export function importCycles(sources: ReadonlyMap<string, string>): string[][] {
  const edges = new Map<string, string[]>();
  for (const [file, source] of sources) {
    const targets = importsOf(source).flatMap(({ specifier }) => importedFile(file, specifier) ?? []);
    edges.set(file, targets.filter((target) => sources.has(target)));
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, lowLink.get(target) ?? 0));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file) ?? 0, index.get(target) ?? 0));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = member === file ? undefined : stack.pop()) {
      onStack.delete(member);
      group.push(member);
    }
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of [...sources.keys()].sort()) if (!index.has(file)) visit(file);
  return cycles.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}

describe("the import graph of src", () => {
  it("has no circle between source files", () => {
    const files = sourceFiles(SRC_DIR).filter((file) => !file.endsWith("layers.test.ts"));
    const sources = new Map(files.map((file) => [file, readFileSync(join(SRC_DIR, file), "utf8")]));
    expect(importCycles(sources)).toEqual([]);
  });

  it("finds a circle of two files, of three, and a file importing itself, but not a chain", () => {
    const sources = new Map([
      ["mcp/a.ts", 'import { b } from "./b.js";'],
      ["mcp/b.ts", 'import type { A } from "./a.js";'],
      ["mcp/c.ts", 'import { d } from "./d.js";'],
      ["mcp/d.ts", 'export { e } from "./http/e.js";'],
      ["mcp/http/e.ts", 'import { c } from "../c.js";'],
      ["mcp/f.ts", 'import { f } from "./f.js";'],
      ["mcp/g.ts", 'import { a } from "./a.js";\nimport { readFileSync } from "node:fs";'],
    ]);
    expect(importCycles(sources)).toEqual([["mcp/a.ts", "mcp/b.ts"], ["mcp/c.ts", "mcp/d.ts", "mcp/http/e.ts"], ["mcp/f.ts"]]);
  });
});
