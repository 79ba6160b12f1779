import { defineConfig } from "vitest/config";

const TEST_FILES = ["src/**/*.test.ts", "test/**/*.test.ts", "servers/**/*.test.ts", "lab/**/*.test.ts"];
/**
 * Test files that need the modules they load fresh: a library that decides something once, as it is first
 * loaded (whether colour is on, whether the terminal draws links), must be loaded after the file set it up.
 */
const OWN_MODULES = ["src/cli/no-color.test.ts", "src/cli/markdown.test.ts"];

export default defineConfig({
  test: {
    // The CLI tests run the built bundle: dist/ is built first when the sources are newer than it.
    globalSetup: ["test/build-for-tests.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Most test files wait on child processes and loopback servers rather than compute: on two cores,
    // three at a time finish in about half the time of vitest's default (cores − 1, here one).
    maxWorkers: 3,
    projects: [
      // A worker runs file after file with the modules it has loaded (no new module graph per file): loading
      // vitest and the sources again for each of ~230 files cost about as much CPU as the tests themselves.
      // A file must therefore leave no global state behind (process.env, a module's settings).
      { extends: true, test: { name: "shared", include: TEST_FILES, exclude: OWN_MODULES, isolate: false } },
      { extends: true, test: { name: "own-modules", include: OWN_MODULES, isolate: true } },
    ],
  },
});
