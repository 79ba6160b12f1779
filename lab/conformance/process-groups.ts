// Every process group the conformance script starts, so that none outlives it: whatever way the script
// ends (done, interrupted, a crash, a closed stdout), the `exit` hook kills each group still listed.

const groups = new Set<number>();
let hooked = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Lists the group led by `pid` (a child spawned with `detached: true`) until `release`. */
export function trackGroup(pid: number): void {
  if (!hooked) {
    hooked = true;
    process.on("exit", () => {
      for (const group of groups) killGroup(group, "SIGKILL");
    });
  }
  groups.add(pid);
}

/** Signals the whole group; the group stays listed until released. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid !== undefined) killGroup(pid, signal);
}

/** Kills whatever is left of the group and forgets it. */
export function releaseGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  killGroup(pid, "SIGKILL");
  groups.delete(pid);
}
