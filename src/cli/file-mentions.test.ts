import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { imageLine } from "../kernel/index.js";
import { createLocalTools } from "../tools/index.js";
import { completeLine } from "./completion.js";
import { projectFileReader, findFileMentions } from "./file-mentions.js";
import { createMentions } from "./mentions.js";

/** A 2×3 PNG: the signature, then an IHDR chunk with the width and height (the rest is not read). */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from("IHDR"),
  Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0, 0, 0, 0, 0]),
]);

function project() {
  const root = mkdtempSync(join(tmpdir(), "mca-file-mentions-"));
  const dir = join(root, "project");
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "calc.js"), "export const add = (a, b) => a + b;\n");
  writeFileSync(join(dir, "src", "main.ts"), "main\n");
  writeFileSync(join(dir, "shot.png"), PNG);
  writeFileSync(join(dir, ".env"), "SECRET=1\n");
  writeFileSync(join(root, "outside.txt"), "not yours\n");
  symlinkSync(join(root, "outside.txt"), join(dir, "link.txt"));
  return dir;
}

function mentionsOf(dir: string, denied: readonly string[] = []) {
  const readFile = createLocalTools(dir).find((tool) => tool.name === "read_file");
  if (readFile === undefined) throw new Error("no read_file");
  return createMentions([], projectFileReader(dir, readFile, (path) => (denied.includes(path) ? "refused: a deny rule" : undefined)));
}

const signal = (): AbortSignal => new AbortController().signal;

describe("findFileMentions", () => {
  it("takes @path of a file inside the project only: an npm scope, an email, a folder or a link leading outside are left alone", () => {
    const dir = project();
    expect(findFileMentions("look at @calc.js, @src/main.ts and @src/main.ts again; not @types/node, me@calc.js, @src or @link.txt", dir)).toEqual(["calc.js", "src/main.ts"]);
  });
});

describe("createMentions with project files", () => {
  it("attaches a file's text as read_file gives it, one line shown for it", async () => {
    const dir = project();
    const attached = await mentionsOf(dir).attach("what does @calc.js do?", signal());
    expect(attached).toEqual({
      text: "what does @calc.js do?\n\n@calc.js (as read_file shows it)\n```\n1\texport const add = (a, b) => a + b;\n```",
      images: [],
      lines: ["@calc.js: [text, 1 line shown]"],
    });
  });

  it("fences a file's text with more backticks than its longest run, so a fence inside it cannot close the block", async () => {
    const dir = project();
    writeFileSync(join(dir, "notes.md"), "```js\nx\n```\n");
    const attached = await mentionsOf(dir).attach("@notes.md", signal());
    if (attached instanceof Error) throw attached;
    expect(attached.text).toBe("@notes.md\n\n@notes.md (as read_file shows it)\n````\n1\t```js\n2\tx\n3\t```\n````");
  });

  it("attaches an image as an image", async () => {
    const dir = project();
    const attached = await mentionsOf(dir).attach("see @shot.png", signal());
    if (attached instanceof Error) throw attached;
    expect(attached.images).toEqual([{ mediaType: "image/png", data: PNG.toString("base64"), bytes: PNG.length, width: 2, height: 3 }]);
    expect(attached.lines).toEqual([`@shot.png: ${imageLine({ mediaType: "image/png", bytes: PNG.length, width: 2, height: 3 })}`]);
  });

  it("refuses a file a deny rule covers, and sends nothing", async () => {
    const dir = project();
    const attached = await mentionsOf(dir, [".env"]).attach("print @.env", signal());
    expect(attached).toEqual(new Error("cannot attach @.env: refused: a deny rule"));
  });

  it("offers the project's files after @ on Tab, beside a server's aliases", () => {
    const dir = project();
    expect(completeLine("explain @src/ma", { commands: [], tools: () => [], projectDir: dir, mentions: mentionsOf(dir) })).toEqual([["@src/main.ts"], "@src/ma"]);
    expect(completeLine("explain @c", { commands: [], tools: () => [], projectDir: dir })).toEqual([["@calc.js"], "@c"]);
  });
});
