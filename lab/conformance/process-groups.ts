// Every process group the conformance script starts, so that none outlives it: whatever way the script
// ends (done, interrupted, a crash, a closed stdout), the `exit` hook kills each group still listed.
// The registry is mca's own (src/mcp/child-processes.ts); this file only adds the hook and the lab's names.
import { killAllChildrenSync, registerChild, signalProcessGroup, unregisterChild } from "../../src/mcp/index.js";

let hooked = false;

/** Lists the group led by `pid` (a child spawned with `detached: true`) until `release`. */
export function trackGroup(pid: number): void {
  if (!hooked) {
    hooked = true;
    process.on("exit", killAllChildrenSync);
  }
  registerChild(pid);
}

/** Signals the whole group; the group stays listed until released. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid !== undefined) signalProcessGroup(pid, signal);
}

/** Kills whatever is left of the group and forgets it. */
export function releaseGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  signalProcessGroup(pid, "SIGKILL");
  unregisterChild(pid);
}
