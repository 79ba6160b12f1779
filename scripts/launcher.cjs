#!/usr/bin/env node
// The `mca` command (copied to dist/src/main.cjs by scripts/bundle.mjs). It runs the bundle beside it,
// bundle.js, from the V8 code cache the same build wrote for it, bundle.js.cache: V8 then skips most of the
// compiling of ~570 kB that every start would otherwise pay (Node 20 has no compile cache of its own;
// module.enableCompileCache came with Node 22). V8 rejects a cache made by another Node or with other flags,
// but it checks only the source's length, and it trusts the bytes: so the cache names the bundle it was made
// for and carries a checksum of itself, and one that does not match both is not used.
"use strict";
const { readFileSync, realpathSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { Script } = require("node:vm");

/** What the build bundled on its own, by the specifiers the bundle imports it by. */
const BUNDLED_APART = new Map([
  ["marked", "markdown-libraries.cjs"],
  ["marked-terminal", "markdown-libraries.cjs"],
]);

/** The cache file's first line: `mca-code-cache <bundle id> <checksum of the rest>`. */
const CACHE_MAGIC = "mca-code-cache";
/** bundle.js's last line names it: `// mca-bundle <id>`, the id a hash of the rest, written by the build. */
const BUNDLE_ID = /\/\/ mca-bundle (\w+)\n$/u;

/**
 * CRC-32 in hex, enough to tell a damaged file: native and quick (zlib.crc32, Node 20.15). Before 20.15 it is
 * undefined, no cache matches, and the bundle is compiled as usual.
 */
function checksum(bytes) {
  const { crc32 } = require("node:zlib");
  return typeof crc32 === "function" ? crc32(bytes).toString(16) : undefined;
}

/** The cache's V8 data when it was made for `bundleId` and is whole; undefined otherwise (compiled as usual). */
function cacheFor(file, bundleId) {
  let bytes;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf(0x0a);
  if (end < 0 || bundleId === undefined) return undefined;
  const [magic, madeFor, sum] = bytes.subarray(0, end).toString("latin1").split(" ");
  const data = bytes.subarray(end + 1);
  return magic === CACHE_MAGIC && madeFor === bundleId && sum !== undefined && sum === checksum(data) ? data : undefined;
}

function run() {
  // Where the file really is: a bin linked elsewhere (npm's) still finds the bundle beside it.
  const here = realpathSync(__dirname);
  const bundle = join(here, "bundle.js");
  const source = readFileSync(bundle, "utf8");
  const cachedData = cacheFor(`${bundle}.cache`, BUNDLE_ID.exec(source.slice(-200))?.[1]);
  // bundle.js is one function expression; it takes, beside CommonJS's five, the dynamic import it uses for
  // what stays outside it: a script compiled from a code cache has no import() of its own in Node 20's vm.
  const main = new Script(source, { filename: bundle, cachedData }).runInThisContext();
  // A relative specifier (the self-test) is taken from the bundle's folder, wherever this file was run from.
  const importFromBundle = async (specifier) => {
    const apart = BUNDLED_APART.get(specifier);
    if (apart !== undefined) return require(join(here, apart));
    return import(specifier.startsWith(".") ? pathToFileURL(join(here, specifier)).href : specifier);
  };
  main(module.exports, createRequire(bundle), module, bundle, here, importFromBundle);
}

if (require.main === module) run();
else module.exports = { BUNDLE_ID, CACHE_MAGIC, cacheFor, checksum };
