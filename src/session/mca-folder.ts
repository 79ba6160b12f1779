// The project's `.mca/` folder, where mca keeps its own files (transcripts, snapshot copies): readable by
// the user only, and — when mca is the one to create it — ignored by git as a whole, so a transcript
// holding a tool's output is never committed by accident.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Folders mca creates are the user's only; files, the same (umask can only take more away). */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const GITIGNORE_EVERYTHING = "# Created by mca: its transcripts and snapshots stay out of git.\n*\n";

export function mcaFolder(projectDir: string): string {
  return join(projectDir, ".mca");
}

/**
 * Makes `.mca/<...parts>` (private folders) and returns its path. Only a `.mca/` created here gets the
 * `.gitignore`; one the user made (to commit their settings, say) is left as it is.
 */
export function ensureMcaFolder(projectDir: string, ...parts: string[]): string {
  const root = mcaFolder(projectDir);
  if (createdNow(root)) writeFileSync(join(root, ".gitignore"), GITIGNORE_EVERYTHING, { flag: "wx", mode: 0o644 });
  const dir = join(root, ...parts);
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  return dir;
}

/** True when this call made the folder; false when it was there already. */
function createdNow(dir: string): boolean {
  try {
    mkdirSync(dir, { mode: PRIVATE_FOLDER_MODE });
    return true;
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "EEXIST") return false;
    throw error;
  }
}
