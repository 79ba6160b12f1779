// The public surface of src/session: the rest of the program imports this folder only through here.
export * from "./session-list.js";
export * from "./snapshot-files.js";
export { createSpillFiles, pruneSpillFiles, type SpillFiles } from "./spill-files.js";
export { ensureStateFolder, oldStateNotice, PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, projectState, userStateDir, type ProjectState } from "./state-folder.js";
export * from "./transcript-file.js";
export { createTreeCheckpoints, MAX_CHECKPOINT_FILE_BYTES, type TreeCheckpoints } from "./tree-checkpoint.js";
