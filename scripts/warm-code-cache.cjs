// Writes bundle.js.cache after a real run (called by scripts/bundle.mjs, in a child Node without flags, as
// the launcher runs). A cache taken right after compiling holds only the top-level code, and every function a
// start runs is then compiled from source again; one taken after a run of pipe mode holds those functions
// too (V8 adds what was compiled since), which saves ~10 ms of every start. The run is pipe mode with an
// empty MCP config and no input, in the empty folder and the throwaway home the build made for it.
"use strict";
const { readFileSync, writeFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const { Script } = require("node:vm");
const launcher = require("./launcher.cjs");

const [bundle, cacheFile] = process.argv.slice(2);
if (bundle === undefined || cacheFile === undefined) throw new Error("usage: warm-code-cache.cjs <bundle.js> <cache file>");
const source = readFileSync(bundle, "utf8");
const bundleId = launcher.BUNDLE_ID.exec(source.slice(-200))?.[1];
const script = new Script(source, { filename: bundle });
// Whatever way the run ends (mca may call process.exit), the cache is written on the way out.
process.on("exit", () => {
  const data = script.createCachedData();
  writeFileSync(cacheFile, Buffer.concat([Buffer.from(`${launcher.CACHE_MAGIC} ${bundleId} ${launcher.checksum(data)}\n`, "latin1"), data]));
});
// The bundle reads its arguments from process.argv as the launcher's run leaves it: node, the script, then mca's own.
process.argv.splice(2, 2, "--mcp-config", "empty.mcp.json");
const here = join(bundle, "..");
script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, here, (specifier) => import(specifier));
