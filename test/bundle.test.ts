// The bundle users run (dist/src/main.cjs, built by scripts/bundle.mjs), which most CLI tests run too, here on
// each path that loads something from outside its one file or later than start: the built-ins it defers until
// first use (a child process, HTTP, readline), the packages it leaves outside (the Anthropic SDK, the Markdown
// libraries bundled apart), package.json, and its code cache.
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Script } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTicketsServer, type TicketsServer } from "../servers/tickets.js";
import { startPtyChat } from "../src/cli/test-support/pty-chat.js";
import { createTempProject, type TempProject } from "../src/cli/test-support/run-cli.js";
import { waitFor } from "../src/cli/test-support/wait-for.js";
import { startFakeMessagesApi } from "../src/model/test-support/fake-messages-api.js";
import { replyEvents } from "../src/model/test-support/sse-replies.js";

const ROOT = join(import.meta.dirname, "..");
const TSX_LOADER = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

async function packageVersion(): Promise<string> {
  return (JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** How long the chat may take to load its Markdown renderer, and how often it is asked again meanwhile. */
const RENDERER_WAIT_LIMIT_MS = 10_000;
const ASK_AGAIN_MS = 100;

let project: TempProject;
let tickets: TicketsServer;

// The suite's global setup (test/build-for-tests.ts) built the bundle from the sources as they are now. It is not
// built again here: the other test files run the same bundle meanwhile.
beforeAll(async () => {
  project = await createTempProject("bundle");
  tickets = await startTicketsServer({ host: "127.0.0.1", port: 0 });
});

afterAll(async () => {
  await tickets.close();
  await project.remove();
});

interface Launcher {
  readonly BUNDLE_ID: RegExp;
  cacheFor(file: string, bundleId: string | undefined): Buffer | undefined;
}

describe("the bundle's code cache", () => {
  const launcher = createRequire(import.meta.url)("../scripts/launcher.cjs") as Launcher;
  const bundle = join(ROOT, "dist", "src", "bundle.js");

  it("is written for the bundle beside it, and V8 takes it", async () => {
    const source = await readFile(bundle, "utf8");
    const data = launcher.cacheFor(`${bundle}.cache`, launcher.BUNDLE_ID.exec(source.slice(-200))?.[1]);
    expect(data?.length).toBeGreaterThan(10_000);
    expect(new Script(source, { filename: bundle, cachedData: data }).cachedDataRejected).toBe(false);
  });

  it("holds the functions a run of pipe mode compiled, not only the top-level code", async () => {
    const source = await readFile(bundle, "utf8");
    const data = launcher.cacheFor(`${bundle}.cache`, launcher.BUNDLE_ID.exec(source.slice(-200))?.[1]);
    const compiledOnly = new Script(source, { filename: bundle }).createCachedData();
    // A warm-up run compiles some thousand functions more than the top level: the cache is well over twice the size.
    expect(data?.length ?? 0).toBeGreaterThan(2 * compiledOnly.length);
  });

  it("is not used when damaged, made for another bundle, or missing, and mca still runs", async () => {
    const copy = await mkdtemp(join(tmpdir(), "mca-bundle-copy-"));
    try {
      // The built files with what they need around them: package.json two folders up, node_modules for the SDK.
      await mkdir(join(copy, "dist", "src"), { recursive: true });
      for (const name of ["main.cjs", "bundle.js"]) await copyFile(join(ROOT, "dist", "src", name), join(copy, "dist", "src", name));
      await copyFile(join(ROOT, "package.json"), join(copy, "package.json"));
      await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
      const cache = await readFile(`${bundle}.cache`);
      const cacheCopy = join(copy, "dist", "src", "bundle.js.cache");
      const damaged = Buffer.from(cache);
      for (let at = damaged.length - 2000; at < damaged.length; at += 97) damaged[at] = (damaged[at] ?? 0) ^ 0xff;
      const otherBundle = Buffer.from(cache.toString("latin1").replace(/^(mca-code-cache )\w+/u, "$1" + "0".repeat(32)), "latin1");
      const version = await packageVersion();
      for (const variant of [damaged, otherBundle, undefined]) {
        await rm(cacheCopy, { force: true });
        if (variant !== undefined) await writeFile(cacheCopy, variant);
        expect(launcher.cacheFor(cacheCopy, launcher.BUNDLE_ID.exec(await readFile(join(copy, "dist", "src", "bundle.js"), "utf8"))?.[1])).toBeUndefined();
        const run = await promisify(execFile)(process.execPath, [join(copy, "dist", "src", "main.cjs"), "--version"], { cwd: copy });
        expect(run.stdout).toBe(`${version}\n`);
      }
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});

describe("the build beside the bundle", () => {
  it("ships the self-test and the demo servers as one module each, with mca's code inside, not beside, them", async () => {
    for (const built of ["src/selftest/run-selftest.js", "servers/notes.js", "servers/tickets.js"]) {
      const text = await readFile(join(ROOT, "dist", built), "utf8");
      const relativeImports = [...text.matchAll(/(?:\bfrom|\bimport\(?)\s*["'](\.{1,2}\/[^"']*)["']/gu)].map((match) => match[1]);
      expect({ built, relativeImports }).toEqual({ built, relativeImports: [] });
    }
  });
});

describe("the bundled mca", () => {
  it("prints the version from package.json", async () => {
    expect(await project.run(["--version"], "")).toEqual({ code: 0, stdout: `${await packageVersion()}\n`, stderr: "" });
  });

  it("runs a shell command through bash", async () => {
    const run = await project.run(["call", "bash", '{"command":"echo from-bash"}', "--allow", "bash"], "");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toContain("from-bash");
  });

  it("reads its prompts from a pipe and reads a file", async () => {
    const run = await project.run([], '/call read_file {"path":"README.md"}\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("hello from the readme");
  });

  it("mounts a stdio server and an HTTP server", async () => {
    const config = join(project.dir, "servers.json");
    const notes = { command: process.execPath, args: ["--import", TSX_LOADER, join(ROOT, "servers", "notes.ts")] };
    await writeFile(config, JSON.stringify({ mcpServers: { notes, tickets: { type: "http", url: tickets.url } } }));
    const run = await project.run(["tools", "--json", "--mcp-config", config], "");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["mcp__notes__search", "mcp__tickets__search"]));
  });

  it("renders the chat's answers as Markdown with the libraries bundled apart", async () => {
    const chat = await startPtyChat(project, [], { MOCK: "1" }, "bundle");
    try {
      // The renderer loads in the background once the prompt is up; an answer that starts before it is ready
      // stays plain. So ask until an answer comes rendered: the mock's examples are a Markdown list, whose
      // items are "  • " with their code coloured rendered, and "- `…`" plain; each answer names call read_file once.
      const rendered = / {2}• (\u001b\[\d+m)?call read_file/u;
      const answers = (): number => chat.screen().split("call read_file").length - 1;
      const deadline = Date.now() + RENDERER_WAIT_LIMIT_MS;
      for (let asked = 1; !rendered.test(chat.screen()); asked += 1) {
        if (Date.now() > deadline) throw new Error(`no answer came rendered in ${asked - 1}: ${JSON.stringify(chat.screen())}`);
        chat.type(`hello ${asked}\r`);
        await waitFor(`answer ${asked}`, () => answers() >= asked);
        if (!rendered.test(chat.screen())) await new Promise((resolve) => setTimeout(resolve, ASK_AGAIN_MS));
      }
      chat.type("\u0004");
      expect(await chat.exited).toBe(0);
    } finally {
      chat.kill();
    }
  }, 30_000);

  it("colours fenced code with the highlighter bundled apart", async () => {
    const libraries = join(ROOT, "dist", "src", "markdown-libraries.cjs");
    const render = `const { Marked, markedTerminal } = require(${JSON.stringify(libraries)});
      process.stdout.write(new Marked(markedTerminal({})).parse("# Title\\n\\n\\u0060\\u0060\\u0060ts\\nconst a: number = 1;\\n\\u0060\\u0060\\u0060\\n"));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", render], { env: { ...process.env, FORCE_COLOR: "1" } });
    expect(stdout).toContain("Title");
    // The keyword and the type, each in its own colour.
    expect(stdout).toMatch(/\u001b\[\d+mconst\u001b\[39m a: \u001b\[\d+mnumber\u001b\[39m/u);
  });

  it("loads the Anthropic SDK and talks to the Messages API", async () => {
    const api = await startFakeMessagesApi([
      { kind: "stream", events: replyEvents("claude-sonnet-5-5", [{ type: "text", chunks: ["Hello ", "from the fake."] }], "end_turn") },
    ]);
    try {
      const run = await project.run(["-p", "hi"], "", { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: api.baseURL });
      expect(run).toMatchObject({ code: 0, stdout: "Hello from the fake.\n" });
      expect(run.stderr).toMatch(/^mca: session \S+ \(mca --resume \S+ continues it\)\n/);
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});
