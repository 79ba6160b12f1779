// Builds the `mca` command into one file, dist/src/main.cjs, so that start-up does not pay Node's ES module
// loader for ~80 modules: CommonJS, because a single CommonJS file starts ~15 ms faster than the same code
// as an ES module. Left outside the file, and loaded only on the paths that need them: the Anthropic SDK,
// `prompts` and the Markdown renderer with its highlighter (large, needed only with a key, a question or the
// chat), and the self-test, which runs from tsc's output (dist/src/selftest) beside the demo servers it
// starts. `tsc -p tsconfig.build.json` runs first and type-checks.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/src/main.cjs",
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["@anthropic-ai/sdk", "prompts", "marked", "marked-terminal", "./selftest/*"],
  // main.ts reads its package.json next to itself through import.meta.url, which CommonJS lacks.
  define: { "import.meta.url": "__mcaModuleUrl" },
  banner: { js: "const __mcaModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: "warning",
});
