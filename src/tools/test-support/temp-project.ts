// A fresh, empty project folder for each test of a describe block, removed after it: the folder the local
// tool under test is created for. The returned accessor is for use inside the tests.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

export function tempProjectPerTest(prefix: string): () => string {
  let project: string | undefined;
  beforeEach(() => {
    project = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
    project = undefined;
  });
  return () => {
    if (project === undefined) throw new Error("the project folder exists only inside a test");
    return project;
  };
}
