import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "servers/**/*.test.ts", "lab/**/*.test.ts"],
    // The CLI tests run the built bundle: dist/ is built first when the sources are newer than it.
    globalSetup: ["test/build-for-tests.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Most test files wait on child processes and loopback servers rather than compute: on two cores,
    // three at a time finish in about half the time of vitest's default (cores − 1, here one).
    maxWorkers: 3,
  },
});
