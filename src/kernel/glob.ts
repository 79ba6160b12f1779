// The glob of approval rules: `*` matches any run of characters (slashes and newlines included), `?`
// exactly one; everything else is literal and the whole text must match.

export function globMatches(pattern: string, text: string): boolean {
  return globToRegExp(pattern).test(text);
}

function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (const char of pattern) {
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else source += char.replace(/[.+^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}
