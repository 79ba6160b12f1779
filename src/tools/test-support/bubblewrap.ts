// The sandbox tests run against the real bubblewrap. Where it is missing they are skipped, saying so in
// the output; on CI (`CI=true`), where .ci/run installs it, a missing or broken bubblewrap fails them instead.
import { describe, it } from "vitest";
import { detectSandbox, type SandboxAvailability } from "../sandbox.js";

export const BUBBLEWRAP: SandboxAvailability = await detectSandbox("linux", process.env);

/** `describe`, when bubblewrap works here; else one test that fails on CI and a visible skip elsewhere. */
export function describeWithBubblewrap(name: string, body: () => void): void {
  if (BUBBLEWRAP.kind === "bubblewrap") {
    describe(name, body);
    return;
  }
  const why = BUBBLEWRAP.kind === "none" ? BUBBLEWRAP.why : BUBBLEWRAP.kind;
  if (process.env.CI === "true") {
    describe(name, () => {
      it("runs against the real bubblewrap, which CI installs", () => {
        throw new Error(`the sandbox tests cannot run: ${why} (.ci/run installs the package bubblewrap)`);
      });
    });
    return;
  }
  console.warn(`SKIPPED: ${name}: ${why}; install the package bubblewrap to run these tests`);
  describe.skip(`${name} (skipped: ${why})`, body);
}
