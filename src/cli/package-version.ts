// mca's own version, read from package.json next to the sources (src/) or the build (dist/src/).
import { readFileSync } from "node:fs";

const CANDIDATES = ["../../package.json", "../package.json"];

export function readPackageVersion(moduleUrl: string): string {
  for (const candidate of CANDIDATES) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(new URL(candidate, moduleUrl), "utf8"));
    } catch {
      continue;
    }
    if (typeof data === "object" && data !== null && "name" in data && data.name === "mca" && "version" in data && typeof data.version === "string") {
      return data.version;
    }
  }
  return "0.0.0";
}
