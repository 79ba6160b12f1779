// The Layout section of docs/development.md is the map a newcomer reads first: every folder of src and every
// module in it is named there, in its folder's row, so a file added without a word about it fails here.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC_DIR = dirname(fileURLToPath(import.meta.url));
const LAYOUT_DOC = join(SRC_DIR, "..", "docs", "development.md");

/** Source files relative to src/ (`mcp/http/transport.ts`): tests and test-support are not modules. */
function moduleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test-support" ? [] : moduleFiles(path);
    const isModule = entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts");
    return isModule ? [relative(SRC_DIR, path).split("\\").join("/")] : [];
  });
}

/** The text from `## Layout` to the next heading of the same level. */
function layoutSection(markdown: string): string {
  const start = markdown.search(/^## Layout$/m);
  if (start < 0) return "";
  const rest = markdown.slice(start + "## Layout".length);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The table row whose first cell names `` `src/<folder>` `` (the folder's own row), or "" when there is none. */
function rowOf(section: string, folder: string): string {
  return section.split("\n").find((line) => line.startsWith(`| \`src/${folder}\``)) ?? "";
}

/** How a module is named: `gate` for gate.ts; a declaration file keeps its whole name (`marked-terminal.d.ts`). */
function moduleName(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  return base.endsWith(".d.ts") ? base : base.replace(/\.ts$/, "");
}

/**
 * What the Layout section fails to name, each as `src/<path>`: a file at the root of src must be named
 * whole (`` `src/main.ts` ``); a folder must have a row of its own (`` | `src/mcp/http` ``); a module must
 * be named in backticks in its folder's row.
 */
function missingFromLayout(files: readonly string[], section: string): string[] {
  const missing = new Set<string>();
  for (const file of files) {
    const slash = file.lastIndexOf("/");
    if (slash < 0) {
      if (!section.includes(`\`src/${file}\``)) missing.add(`src/${file}`);
      continue;
    }
    const folder = file.slice(0, slash);
    const row = rowOf(section, folder);
    if (row === "") missing.add(`src/${folder}/`);
    else if (!row.includes(`\`${moduleName(file)}\``)) missing.add(`src/${file}`);
  }
  return [...missing].sort();
}

describe("the Layout section of docs/development.md", () => {
  it("names every folder of src and every module in its folder's row", () => {
    const files = moduleFiles(SRC_DIR);
    expect(files).toContain("kernel/gate.ts");
    expect(missingFromLayout(files, layoutSection(readFileSync(LAYOUT_DOC, "utf8")))).toEqual([]);
  });

  it("names a module missing from its row, a folder without a row, and a root file not named whole", () => {
    const section = [
      "The composition root is src/main.ts, and `gate` is named here, outside any row.",
      "| folder | modules |",
      "|---|---|",
      "| `src/kernel` — the loop | `agent` · `tool-call` |",
      "| `src/mcp` — the client | `discovery` · `http/` |",
    ].join("\n");
    const files = ["main.ts", "kernel/agent.ts", "kernel/gate.ts", "mcp/discover.ts", "mcp/http/transport.ts", "mcp/http/exchange.ts"];
    expect(missingFromLayout(files, section)).toEqual(["src/kernel/gate.ts", "src/main.ts", "src/mcp/discover.ts", "src/mcp/http/"]);
  });

  it("accepts a declaration file by its whole name, and reads only the Layout section", () => {
    const markdown = [
      "## Checks",
      "| `src/cli` — not the layout | `chat` |",
      "## Layout",
      "| `src/cli` — the command line | `marked-terminal.d.ts` · `chat` |",
      "## After",
      "| `src/cli` | `render` |",
    ].join("\n");
    const section = layoutSection(markdown);
    expect(missingFromLayout(["cli/chat.ts", "cli/marked-terminal.d.ts"], section)).toEqual([]);
    expect(missingFromLayout(["cli/render.ts"], section)).toEqual(["src/cli/render.ts"]);
  });
});
