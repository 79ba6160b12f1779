// Which folder is the project: mca started in a subfolder (`cd src && mca`) still works on the whole
// project, as git and other agents do. The nearest folder upward that holds one of the project's markers
// wins; with none, the folder mca started in is the project.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/**
 * What makes a folder a project root. `.mca/settings.json` rather than `.mca/` alone: mca itself creates
 * `.mca/` (transcripts, snapshots) wherever it runs, and a folder must not become a project by having once
 * been a working directory.
 */
export const PROJECT_MARKERS = [".git", "mcp.config.json", join(".mca", "settings.json")] as const;

/**
 * The search stops at the user's home folder, which is a project only when mca starts there: a stray marker
 * in the home folder must not make every unrelated folder under it one project, widening what the tools
 * may touch to the whole home.
 */
export function findProjectRoot(start: string, home: string): string {
  const first = resolve(start);
  const ceiling = resolve(home);
  for (let dir = first; ; ) {
    if (PROJECT_MARKERS.some((marker) => existsSync(join(dir, marker)))) return dir;
    const parent = dirname(dir);
    if (parent === dir || parent === ceiling || dir === ceiling) return first;
    dir = parent;
  }
}
