// Tool results too long for the budget, kept whole with their session: `<state folder>/spill/<session>/<call>.txt`,
// readable by the user only. The model reads the rest with read_file (the one place outside the project it may
// read, and only these files); /last shows them whole. A session's results go when its transcript goes.
import { closeSync, constants, lstatSync, openSync, readdirSync, realpathSync, rmSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, normalize } from "node:path";
import type { SpillStore } from "../kernel/index.js";
import { ensureStateFolder, PRIVATE_FILE_MODE, type ProjectState } from "./state-folder.js";
import { isSessionId, sessionsDir, transcriptPath } from "./transcript-file.js";

const SPILL_FOLDER = "spill";
const SPILL_SUFFIX = ".txt";
/** A call id names its file when it is a plain word (the API's `toolu_…`, mca's `user-call-<n>`); other ids are numbered. */
const PLAIN_CALL_ID = /^[A-Za-z0-9_-]{1,100}$/;

export interface SpillFiles extends SpillStore {
  /** The session's spill folder (made on the first spill). */
  readonly dir: string;
  /** Whether `path` names one of this session's spill files as written: an absolute path directly in `dir`. */
  isSpillFile(path: string): boolean;
}

/** The spill files of session `sessionId` (a valid session id: it names one folder under `spill/`). */
export function createSpillFiles(state: ProjectState, sessionId: string): SpillFiles {
  if (!isSessionId(sessionId)) throw new Error(`invalid session id ${JSON.stringify(sessionId)}`);
  const dir = join(state.dir, SPILL_FOLDER, sessionId);
  let unnamed = 0;
  return {
    dir,
    async spill(callId, text) {
      // Made (and checked to be the user's own, no symlink on the way) at the first result that needs it.
      ensureStateFolder(state, SPILL_FOLDER, sessionId);
      unnamed += PLAIN_CALL_ID.test(callId) ? 0 : 1;
      const file = join(dir, `${PLAIN_CALL_ID.test(callId) ? callId : `call-${unnamed}`}${SPILL_SUFFIX}`);
      // O_NOFOLLOW: a symlink left at that name is never written through.
      const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, PRIVATE_FILE_MODE);
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      return file;
    },
    isSpillFile(path) {
      if (!isAbsolute(path) || normalize(path) !== path || dirname(path) !== dir || !isRealFolder(dir)) return false;
      const name = basename(path);
      return name.endsWith(SPILL_SUFFIX) && PLAIN_CALL_ID.test(name.slice(0, -SPILL_SUFFIX.length));
    },
  };
}

/**
 * Removes the spill folders of sessions whose transcript is gone (a session removed), except `keep`'s (the
 * session starting now, which has not written its transcript yet). Best effort: what cannot be removed stays.
 */
export function pruneSpillFiles(state: ProjectState, keep: string): void {
  const root = join(state.dir, SPILL_FOLDER);
  // Only mca's own folder is emptied: a symlink in its place would have the entries of its target removed.
  if (!isRealFolder(root)) return;
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  const transcripts = sessionsDir(state);
  for (const name of names) {
    if (name === keep || (isSessionId(name) && exists(transcriptPath(transcripts, name)))) continue;
    try {
      rmSync(join(root, name), { recursive: true, force: true });
    } catch {
      // Left for the next start.
    }
  }
}

/** A folder that is where its path says, with no symlink on the way: a spill folder is read and emptied only then. */
function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && realpathSync(path) === path;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
