#!/usr/bin/env node
// The `mca` command (copied to dist/src/main.cjs by scripts/bundle.mjs). It runs the bundle beside it,
// bundle.js, from the V8 code cache the same build wrote for it, bundle.js.cache: V8 then skips most of the
// compiling of ~570 kB that every start would otherwise pay (Node 20 has no compile cache of its own;
// module.enableCompileCache came with Node 22). A cache that does not fit this Node — another version, other
// V8 flags, a damaged file — is rejected by V8 itself, and the source is compiled as usual.
"use strict";
const { readFileSync } = require("node:fs");
const { createRequire } = require("node:module");
const { join } = require("node:path");
const { Script } = require("node:vm");

const bundle = join(__dirname, "bundle.js");
let cachedData;
try {
  cachedData = readFileSync(`${bundle}.cache`);
} catch {
  cachedData = undefined;
}
// bundle.js is one function expression; it takes, beside CommonJS's five, the dynamic import it uses for what
// stays outside it: a script compiled from a code cache has no import() of its own in Node 20's vm.
const run = new Script(readFileSync(bundle, "utf8"), { filename: bundle, cachedData }).runInThisContext();
run(module.exports, createRequire(bundle), module, bundle, __dirname, (specifier) => import(specifier));
