// The process groups of the MCP servers this process spawned and has not yet seen die, so that any exit
// — even a crash — can take them all down synchronously from `process.on("exit")`.

const liveGroups = new Set<number>();

/** Each stdio server is spawned detached, so its pid is also the id of its own process group. */
export function registerChild(pid: number): void {
  liveGroups.add(pid);
}

export function unregisterChild(pid: number): void {
  liveGroups.delete(pid);
}

export function liveChildren(): readonly number[] {
  return [...liveGroups];
}

/** Signals a whole process group; false when there is no such group any more. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Synchronous on purpose: an "exit" listener cannot wait. SIGKILL, because nothing will be left to wait. */
export function killAllChildrenSync(): void {
  for (const pid of liveGroups) signalProcessGroup(pid, "SIGKILL");
  liveGroups.clear();
}
