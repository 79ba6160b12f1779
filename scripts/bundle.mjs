// Builds dist/, the one build of mca: everything in it is esbuild's output, made here. `pnpm build` runs
// `tsc -p tsconfig.build.json` first, which only type-checks (it emits nothing). What it writes:
// - dist/src/main.cjs (scripts/launcher.cjs), the `mca` command, which runs dist/src/bundle.js: all of mca's own
//   code and its small dependencies in one file, so that start-up does not pay Node's ES module loader for ~80
//   modules, from the V8 code cache written here beside it (bundle.js.cache). The bundle is CommonJS, because
//   one CommonJS file starts ~15 ms faster than the same code as an ES module. Left outside it, and loaded only
//   on the paths that need them: the Anthropic SDK, ajv (a tool result checked against its outputSchema),
//   `prompts` and the Markdown renderer with its highlighter (large, needed only with a key, a question or the
//   chat; the renderer is bundled on its own, below), and the self-test.
// - dist/src/selftest/run-selftest.js, the self-test (`SELFTEST=1`), one ES module the bundle imports when asked.
// - dist/servers/notes.js and tickets.js, the demo servers, each one ES module run as its own process.
// - dist/src/markdown-libraries.cjs, the Markdown renderer, and dist/src/network-forwarder.cjs, the sandbox's
//   forwarder. docs/development.md ("The build") says why each part is there.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { Script } from "node:vm";
import { build } from "esbuild";

// Node compiles a built-in module the first time it is required, and the ones below are not in its start-up
// snapshot: child_process, net, crypto, http(s) and tls, readline and streams cost ~20 ms together, while
// `mca tools --json` or pipe mode with empty input needs almost none of them. In the bundle each one is a
// stand-in whose properties load the real module on first use, so a run pays only for what it touches.
const DEFERRED_BUILTINS = [
  "child_process", "crypto", "dgram", "dns/promises", "fs/promises", "http", "http2", "https", "net", "os", "readline",
  "readline/promises", "stream", "stream/promises", "string_decoder", "tls", "tty", "worker_threads", "zlib",
];

const builtin = createRequire(import.meta.url);

const deferBuiltins = {
  name: "defer-builtins",
  setup(builder) {
    const names = DEFERRED_BUILTINS.map((name) => name.replace("/", "\\/")).join("|");
    builder.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, (args) => {
      const name = args.path.replace(/^node:/, "");
      // The stand-in's own require is the real module; so is a module that is itself a function (`stream`),
      // which no object of getters can stand in for.
      if (args.namespace === "deferred-builtin" || typeof builtin(name) === "function") return { path: args.path, external: true };
      return { path: name, namespace: "deferred-builtin" };
    });
    builder.onLoad({ filter: /.*/, namespace: "deferred-builtin" }, ({ path }) => ({
      loader: "js",
      contents: [
        `let real;`,
        `const load = () => (real ??= require(${JSON.stringify(`node:${path}`)}));`,
        `for (const key of ${JSON.stringify(Object.keys(builtin(path)))}) {`,
        `  Object.defineProperty(exports, key, { enumerable: true, get: () => load()[key], set: (value) => { load()[key] = value; } });`,
        `}`,
      ].join("\n"),
    }));
  },
};

// jsonc-parser's "main" is a UMD wrapper whose require() calls esbuild cannot follow; its ES module build bundles like any other.
const jsoncParserEsm = {
  name: "jsonc-parser-esm",
  setup(builder) {
    builder.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path: builtin.resolve("jsonc-parser/lib/esm/main.js") }));
  },
};

/** scripts/launcher.cjs, for the cache's format, which the build writes and the launcher checks. */
const launcher = createRequire(import.meta.url)("./launcher.cjs");
const BUNDLE = "dist/src/bundle.js";
const LAUNCHER = "dist/src/main.cjs";
/** The parameters bundle.js's function takes: CommonJS's five, and the dynamic import of scripts/launcher.cjs. */
const PARAMETERS = "exports, require, module, __filename, __dirname, __mcaImport";
/** What the bundle leaves outside itself and imports when a path needs it. */
const EXTERNAL = ["@anthropic-ai/sdk", "ajv", "prompts", "marked", "marked-terminal", "./selftest/*"];

const built = await build({
  entryPoints: ["src/main.ts"],
  write: false,
  outfile: BUNDLE,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: EXTERNAL,
  plugins: [deferBuiltins, jsoncParserEsm],
  // main.ts reads its package.json next to itself through import.meta.url, which CommonJS lacks.
  define: { "import.meta.url": "__mcaModuleUrl" },
  logLevel: "warning",
});

// A script compiled by vm has no import() of its own, so each one goes through the launcher's.
const code = built.outputFiles[0].text.replace(/^#!.*\n/u, "").replace(/\bimport\((?=")/gu, "__mcaImport(");
const leftover = /^.*\bimport\(.*$/mu.exec(code);
if (leftover !== null) throw new Error(`bundle.js keeps an import() the launcher cannot serve: ${leftover[0].trim()}`);
// One line before the code, so a stack trace's line numbers are the bundle's plus one; the last names it.
const body =
  `(function (${PARAMETERS}) {"use strict"; const __mcaModuleUrl = require("node:url").pathToFileURL(__filename).href;\n` +
  `${code}\n})\n`;
const bundleId = createHash("sha256").update(body).digest("hex").slice(0, 32);
const text = `${body}// mca-bundle ${bundleId}\n`;
if (launcher.BUNDLE_ID.exec(text.slice(-200))?.[1] !== bundleId) throw new Error("the launcher would not find the bundle's id");
// The old cache goes first and the new one is renamed into place: a build cut short leaves no cache that
// names this bundle, never a stale one.
const cacheFile = `${BUNDLE}.cache`;
await rm(cacheFile, { force: true });
await mkdir(dirname(BUNDLE), { recursive: true });
await writeFile(BUNDLE, text);
// The cache of exactly this text, by this Node, behind the line the launcher checks: taken after a run of
// pipe mode (scripts/warm-code-cache.cjs), in a child without flags or the caller's NODE_OPTIONS (V8 rejects a
// cache made under other flags), with a throwaway home, so that the run touches nothing of the user's. If that
// run fails, the cache of compiling alone.
const warmDir = await mkdtemp(join(tmpdir(), "mca-build-"));
try {
  await writeFile(join(warmDir, "empty.mcp.json"), '{"mcpServers":{}}\n');
  const env = { PATH: process.env.PATH ?? "", HOME: warmDir, XDG_STATE_HOME: join(warmDir, "state"), XDG_CONFIG_HOME: join(warmDir, "config"), MOCK: "1", NO_COLOR: "1" };
  const warm = spawnSync(process.execPath, [resolve("scripts/warm-code-cache.cjs"), resolve(BUNDLE), resolve(`${cacheFile}.tmp`)], { cwd: warmDir, env, stdio: ["ignore", "ignore", "pipe"], timeout: 60_000 });
  if (warm.status !== 0 || !existsSync(`${cacheFile}.tmp`)) {
    console.warn(`bundle: the warm-up run failed (${warm.error?.message ?? `exit ${warm.status}`}: ${warm.stderr?.toString().trim() ?? ""}); the cache holds the top-level code only`);
    const data = new Script(text, { filename: resolve(BUNDLE) }).createCachedData();
    const header = `${launcher.CACHE_MAGIC} ${bundleId} ${launcher.checksum(data)}\n`;
    await writeFile(`${cacheFile}.tmp`, Buffer.concat([Buffer.from(header, "latin1"), data]));
  }
} finally {
  await rm(warmDir, { recursive: true, force: true });
}
await rename(`${cacheFile}.tmp`, cacheFile);

// The Markdown renderer of the chat, marked and marked-terminal with their highlighter, in one CommonJS file
// of their own, dist/src/markdown-libraries.cjs, which the launcher hands to the bundle's import("marked") and
// import("marked-terminal"): from ~200 files it costs ~220 ms, in one ~90 ms, taken right after the chat's
// prompt is up.
await build({
  stdin: { contents: 'export { Marked } from "marked";\nexport { markedTerminal } from "marked-terminal";\n', resolveDir: ".", loader: "js" },
  outfile: "dist/src/markdown-libraries.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
});

// The self-test and the demo servers, which run apart from the bundle: the self-test only with SELFTEST=1
// (imported by the bundle then, from ./selftest/), the servers each as a process of its own (mcp.config.json
// starts `node dist/servers/notes.js`; the self-test starts both). Each is one ES module with mca's code and
// the servers' inside it; packages stay outside, loaded from node_modules as the sources load them. The
// self-test keeps its place, dist/src/selftest/, where it finds mcp.config.json three folders up.
await build({
  entryPoints: {
    "src/selftest/run-selftest": "src/selftest/run-selftest.ts",
    "servers/notes": "servers/notes.ts",
    "servers/tickets": "servers/tickets.ts",
  },
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});

// The forwarder a sandboxed command's HTTP(S) leaves through (src/tools/network-forwarder.cjs) runs on its own,
// inside the sandbox: beside the bundle, where sandbox.ts, bundled in it, looks for it.
await copyFile("src/tools/network-forwarder.cjs", "dist/src/network-forwarder.cjs");

await copyFile("scripts/launcher.cjs", LAUNCHER);
await chmod(LAUNCHER, 0o755);

// What an older build left that this one did not write (tsc's output of every module, until this build was
// the only one) goes, so dist/ holds this build alone. Dot-names stay: the test setup's lock and staging
// folder (test/build-for-tests.ts).
const WRITTEN = new Set([
  BUNDLE, cacheFile, LAUNCHER, "dist/src/markdown-libraries.cjs", "dist/src/network-forwarder.cjs",
  "dist/src/selftest/run-selftest.js", "dist/servers/notes.js", "dist/servers/tickets.js",
]);
async function prune(folder) {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory()) {
      await prune(path);
      if ((await readdir(path)).length === 0) await rmdir(path);
    } else if (!WRITTEN.has(path)) {
      await rm(path, { force: true });
    }
  }
}
await prune("dist");
