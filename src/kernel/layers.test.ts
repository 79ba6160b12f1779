// The kernel's boundaries, checked on its source: it imports nothing from the outer layers and does no
// I/O of its own (no filesystem, processes, environment, console, clock or randomness).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const THIS_FILE = fileURLToPath(import.meta.url);
const KERNEL_DIR = dirname(THIS_FILE);
const FORBIDDEN_FOLDERS = ["cli", "mcp", "model", "tools", "session", "selftest"];
const FORBIDDEN_MODULES = ["node:fs", "node:fs/promises", "node:child_process", "node:net", "node:http", "node:https", "node:os", "node:process"];
const FORBIDDEN_CALLS = [/\bprocess\.(env|argv|stdout|stderr|stdin|exit|cwd)\b/, /\bconsole\./, /\bDate\.now\b/, /\bnew Date\b/, /\bMath\.random\b/, /\bperformance\.now\b/];

/** Every module specifier in `import … from "x"`, `export … from "x"`, `import("x")` and `import "x"`. */
function importsOf(source: string): string[] {
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => match[1] ?? "");
}

/** The problems of one kernel file: `file` is relative to the kernel folder, `source` its text. */
function layerProblems(file: string, source: string, isTest: boolean): string[] {
  const problems: string[] = [];
  for (const specifier of importsOf(source)) {
    if (specifier.startsWith(".")) {
      const target = join(dirname(join("src/kernel", file)), specifier);
      const folder = relative("src", target).split(/[\\/]/)[0] ?? "";
      if (FORBIDDEN_FOLDERS.includes(folder)) problems.push(`${file} imports ${specifier} (src/${folder})`);
    } else if (!isTest && (FORBIDDEN_MODULES.includes(specifier) || FORBIDDEN_MODULES.includes(`node:${specifier}`))) {
      problems.push(`${file} imports ${specifier}`);
    }
  }
  if (!isTest) {
    for (const call of FORBIDDEN_CALLS) if (call.test(source)) problems.push(`${file} uses ${call.source}`);
  }
  return problems;
}

function kernelFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return kernelFiles(path);
    return entry.name.endsWith(".ts") ? [relative(KERNEL_DIR, path)] : [];
  });
}

describe("the kernel's layer boundaries", () => {
  it("are kept by every file in src/kernel", () => {
    // This file is left out: its samples of forbidden imports are strings, not imports.
    const files = kernelFiles(KERNEL_DIR).filter((file) => join(KERNEL_DIR, file) !== THIS_FILE);
    expect(files).toContain("agent.ts");
    const problems = files.flatMap((file) => {
      const isTest = file.endsWith(".test.ts") || file.startsWith("test-support");
      return layerProblems(file, readFileSync(join(KERNEL_DIR, file), "utf8"), isTest);
    });
    expect(problems).toEqual([]);
  });

  it("catch an import of an outer layer, in every import form", () => {
    expect(layerProblems("agent.ts", 'import { x } from "../mcp/client.js";', false)).toEqual(["agent.ts imports ../mcp/client.js (src/mcp)"]);
    expect(layerProblems("a.ts", 'export { y } from "../cli/render.js";', false)).toEqual(["a.ts imports ../cli/render.js (src/cli)"]);
    expect(layerProblems("a.ts", 'const m = await import("../model/mock.js");', false)).toEqual(["a.ts imports ../model/mock.js (src/model)"]);
    expect(layerProblems("test-support/f.ts", 'import "../../tools/bash.js";', true)).toEqual(["test-support/f.ts imports ../../tools/bash.js (src/tools)"]);
  });

  it("catch I/O, the environment, the clock and randomness outside tests", () => {
    expect(layerProblems("a.ts", 'import { readFile } from "node:fs/promises";\nconst k = process.env.KEY;', false)).toEqual([
      "a.ts imports node:fs/promises",
      "a.ts uses \\bprocess\\.(env|argv|stdout|stderr|stdin|exit|cwd)\\b",
    ]);
    expect(layerProblems("a.ts", "const id = Math.random(); console.log(new Date());", false)).toHaveLength(3);
  });

  it("let a kernel file import its neighbours", () => {
    expect(layerProblems("agent.ts", 'import { decide } from "./gate.js";', false)).toEqual([]);
  });
});
