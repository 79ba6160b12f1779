import { describe, expect, it } from "vitest";
import { createUndoLog } from "./undo-log.js";

describe("createUndoLog", () => {
  it("is empty until a turn changes a file or calls a remote tool", () => {
    expect(createUndoLog().latest()).toBeUndefined();
  });

  it("gathers a turn's file changes and remote calls, each remote tool named once", () => {
    const log = createUndoLog();
    log.noteRemoteCall(2, "mcp__tickets__create");
    log.noteFileChange(2);
    log.noteRemoteCall(2, "mcp__tickets__create");
    log.noteRemoteCall(2, "mcp__notes__add");
    expect(log.latest()).toEqual({ turn: 2, changedFiles: true, notUndoable: ["mcp__tickets__create", "mcp__notes__add"] });
  });

  it("goes back one turn at a time as turns are forgotten", () => {
    const log = createUndoLog();
    log.noteFileChange(1);
    log.noteRemoteCall(3, "mcp__notes__add");
    expect(log.latest()?.turn).toBe(3);
    log.forget(3);
    expect(log.latest()).toEqual({ turn: 1, changedFiles: true, notUndoable: [] });
    log.forget(1);
    expect(log.latest()).toBeUndefined();
  });
});
