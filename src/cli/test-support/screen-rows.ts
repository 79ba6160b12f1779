// What a terminal shows after the bytes a pseudo-terminal test captured: the rows of text left standing once
// carriage returns, cursor moves and erases have done their work (colours and modes ignored, no wrapping).
// A spinner row that was never cleared, or a row written over, shows here as the user would see it.

/** CSI: ESC [ private marker, numbers, final letter. */
const CSI = /^\u001b\[([?>]?)([\d;]*)([A-Za-z@`~])/u;

export function screenRows(bytes: string): string[] {
  const rows: string[][] = [[]];
  let row = 0;
  let column = 0;
  const current = (): string[] => {
    while (rows.length <= row) rows.push([]);
    return rows[row] ?? [];
  };
  for (let index = 0; index < bytes.length; ) {
    const char = bytes[index] ?? "";
    if (char === "\u001b") {
      const match = CSI.exec(bytes.slice(index));
      if (match === null) {
        index += 2;
        continue;
      }
      index += match[0].length;
      if (match[1] !== "") continue;
      const count = Number((match[2] ?? "").split(";")[0] || "1");
      switch (match[3]) {
        case "A":
          row = Math.max(0, row - count);
          break;
        case "B":
          row += count;
          break;
        case "C":
          column += count;
          break;
        case "D":
          column = Math.max(0, column - count);
          break;
        case "G":
          column = count - 1;
          break;
        case "K":
          current().splice(match[2] === "2" ? 0 : column);
          break;
        case "J":
          current().splice(column);
          rows.splice(row + 1);
          break;
        default:
          break;
      }
      continue;
    }
    index += 1;
    if (char === "\r") column = 0;
    else if (char === "\n") row += 1;
    else if (char >= " ") {
      const line = current();
      while (line.length < column) line.push(" ");
      line[column] = char;
      column += 1;
    }
  }
  return rows.map((line) => line.join("").trimEnd());
}
