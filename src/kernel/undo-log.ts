// Which turns can be undone: a turn enters the log when a tool changes files in it (their snapshots
// are in the SnapshotStore) or when a remote tool runs in it (recorded as not undoable).

export interface UndoEntry {
  readonly turn: number;
  readonly changedFiles: boolean;
  /** Names of the remote tools called in the turn, each once, in call order. */
  readonly notUndoable: readonly string[];
}

export interface UndoLog {
  noteFileChange(turn: number): void;
  noteRemoteCall(turn: number, tool: string): void;
  /** The most recent turn that changed files or called a remote tool. */
  latest(): UndoEntry | undefined;
  forget(turn: number): void;
}

export function createUndoLog(): UndoLog {
  // Turns only grow, so insertion order is turn order and the last entry is the latest turn.
  const entries = new Map<number, UndoEntry>();
  const entryOf = (turn: number): UndoEntry => entries.get(turn) ?? { turn, changedFiles: false, notUndoable: [] };
  return {
    noteFileChange(turn) {
      entries.set(turn, { ...entryOf(turn), changedFiles: true });
    },
    noteRemoteCall(turn, tool) {
      const entry = entryOf(turn);
      if (!entry.notUndoable.includes(tool)) entries.set(turn, { ...entry, notUndoable: [...entry.notUndoable, tool] });
    },
    latest() {
      return [...entries.values()].at(-1);
    },
    forget(turn) {
      entries.delete(turn);
    },
  };
}
