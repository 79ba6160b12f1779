// What the kernel needs to make a turn undoable: file contents saved before a tool changes them, put
// back on /undo. src/session/snapshot-files.ts keeps them on disk; tests pass a map.

export interface SnapshotStore {
  /**
   * Saves the current content of `path` (absolute), or the fact that it does not exist, as it was
   * before `turn` first changed it. Saving a path again in the same turn keeps the first copy.
   * Rejects when the copy cannot be made; the kernel then does not run the change.
   */
  save(turn: number, path: string): Promise<void>;
  /**
   * Puts every file saved for `turn` back as it was (rewriting changed files, deleting created ones),
   * forgets the turn, and returns the restored paths in the order they were saved.
   */
  restore(turn: number): Promise<string[]>;
}
