// File-name globs for the search tool: `*` and `?` stay inside one path segment, `**/` spans folders,
// `{a,b}` is an alternation. A glob without `/` matches the file's base name (`*.ts` anywhere).

/** A predicate over `/`-separated paths relative to the folder being searched. */
export function compileGlob(glob: string): (relativePath: string) => boolean {
  const pattern = globToRegExp(glob);
  if (glob.includes("/")) return (relativePath) => pattern.test(relativePath);
  return (relativePath) => pattern.test(relativePath.slice(relativePath.lastIndexOf("/") + 1));
}

function globToRegExp(glob: string): RegExp {
  let source = "";
  let braceDepth = 0;
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob.charAt(i);
    if (char === "*" && glob.charAt(i + 1) === "*") {
      const slashFollows = glob.charAt(i + 2) === "/";
      source += slashFollows ? "(?:.*/)?" : ".*";
      i += slashFollows ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "{") {
      braceDepth += 1;
      source += "(?:";
    } else if (char === "}" && braceDepth > 0) {
      braceDepth -= 1;
      source += ")";
    } else if (char === "," && braceDepth > 0) {
      source += "|";
    } else {
      source += char.replace(/[.+^$()|[\]\\{}]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}
