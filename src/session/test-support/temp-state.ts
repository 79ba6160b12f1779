// A fresh project folder and, beside it (never inside), the folder mca keeps that project's state in,
// for each test of a describe block; both removed after it.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { ProjectState } from "../state-folder.js";

export function tempStatePerTest(prefix: string): () => ProjectState {
  let root: string | undefined;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    mkdirSync(join(root, "project"));
  });
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });
  return () => {
    if (root === undefined) throw new Error("the project folder exists only inside a test");
    return { projectDir: join(root, "project"), dir: join(root, "state") };
  };
}
