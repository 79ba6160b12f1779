// The glob of approval rules, matched without regular expressions: a rule comes from settings a cloned
// repository may ship, and a backtracking RegExp made from `*(*****…Z)` would stall on a long subject.
// The pattern is split on `*` into pieces of fixed length, which are placed left to right in one pass.

/**
 * `*` matches any run of characters (slashes and newlines included), `?` exactly one (a code point);
 * everything else is literal and the whole text must match. Compiled: the `*`-separated segments, each
 * a list of literal runs (strings) and counts of `?` (numbers).
 */
export interface Glob {
  /** Whether `*` occurs at all: without one the single segment must be the whole text. */
  readonly starred: boolean;
  /** `a?b*c` → [["a", 1, "b"], ["c"]]; empty middle segments (`**`) are dropped. */
  readonly segments: readonly Segment[];
}

type Segment = readonly Piece[];
type Piece = string | number;

export function compileGlob(text: string): Glob {
  const parts = text.split("*").map(segmentOf);
  const starred = parts.length > 1;
  // A run of stars is one star: only the first and last segments are anchored, and may be empty.
  const middle = parts.slice(1, -1).filter((segment) => segment.length > 0);
  const segments = starred ? [parts[0] ?? [], ...middle, parts[parts.length - 1] ?? []] : parts;
  return { starred, segments };
}

/** The text every match begins with: the pattern up to its first `*` or `?`, or all of it when it has neither. */
export function literalPrefix(glob: Glob): string {
  const [first] = glob.segments[0] ?? [];
  return typeof first === "string" ? first : "";
}

function segmentOf(text: string): Segment {
  return text
    .split(/(\?+)/u)
    .filter((run) => run !== "")
    .map((run) => (run.startsWith("?") ? run.length : run));
}

/**
 * Whether the glob covers the whole of `text`. The first segment is anchored at the start and the last at
 * the end; each one between is put at its leftmost place after the previous one, which is enough because
 * every segment spans a fixed number of code points (an earlier start never ends later). Each search
 * starts where the previous one ended: one pass over the text in all, whatever the number of stars.
 */
export function globMatches(glob: Glob, text: string): boolean {
  const { segments } = glob;
  const first = segments[0] ?? [];
  if (!glob.starred) return matchForward(text, 0, first) === text.length;
  const start = matchForward(text, 0, first);
  const end = matchBackward(text, text.length, segments[segments.length - 1] ?? []);
  if (start === -1 || end === -1 || end < start) return false;
  let position = start;
  for (const segment of segments.slice(1, -1)) {
    position = findLeftmost(text, position, end, segment);
    if (position === -1) return false;
  }
  return true;
}

/**
 * Where `segment` ends when it starts at `from`, or -1. Every piece starts and ends on a code-point
 * boundary, so a lone surrogate in a rule never matches half of a pair (as with a RegExp's `u` flag).
 */
function matchForward(text: string, from: number, segment: Segment): number {
  let position = from;
  for (const piece of segment) {
    if (typeof piece === "number") position = stepForward(text, position, piece);
    else position = text.startsWith(piece, position) ? position + piece.length : -1;
    if (position === -1 || !isBoundary(text, position)) return -1;
  }
  return isBoundary(text, from) ? position : -1;
}

/** Where `segment` starts when it ends at `to`, or -1. */
function matchBackward(text: string, to: number, segment: Segment): number {
  let position = to;
  for (let index = segment.length - 1; index >= 0; index -= 1) {
    const piece = segment[index] ?? "";
    if (typeof piece === "number") position = stepBack(text, position, piece);
    else position = text.endsWith(piece, position) ? position - piece.length : -1;
    if (position === -1 || !isBoundary(text, position)) return -1;
  }
  return isBoundary(text, to) ? position : -1;
}

/**
 * The end of the leftmost place at or after `from` where `segment` matches and ends by `limit`, or -1.
 * A literal segment is found with indexOf; one with `?` in it by a Shift-And search, one pass over the
 * text whatever the segment holds.
 */
function findLeftmost(text: string, from: number, limit: number, segment: Segment): number {
  const [only] = segment;
  if (segment.length === 1 && typeof only === "string") {
    for (let search = from; ; search += 1) {
      search = text.indexOf(only, search);
      if (search === -1 || search + only.length > limit) return -1;
      if (isBoundary(text, search) && isBoundary(text, search + only.length)) return search + only.length;
    }
  }
  const { masks, any, last } = shiftAndMasks(segment);
  const state = new Uint32Array(any.length);
  for (let at = from; at < limit; ) {
    const point = text.codePointAt(at) ?? 0;
    at += point > 0xffff ? 2 : 1;
    const mask = masks.get(point) ?? any;
    // Bit i says: the segment's first i + 1 code points end here.
    let carry = 1;
    for (let word = 0; word < state.length; word += 1) {
      const previous = state[word] ?? 0;
      state[word] = ((previous << 1) | carry) & (mask[word] ?? 0);
      carry = previous >>> 31;
    }
    if (((state[state.length - 1] ?? 0) & last) !== 0) return at;
  }
  return -1;
}

interface ShiftAndMasks {
  /** For each code point of the segment: bit i set where the segment's i-th code point is it or a `?`. */
  readonly masks: ReadonlyMap<number, Uint32Array>;
  /** For any other code point: the bits of the `?`s. */
  readonly any: Uint32Array;
  /** The bit of the segment's last code point in the last word. */
  readonly last: number;
}

function shiftAndMasks(segment: Segment): ShiftAndMasks {
  const points = segment.flatMap((piece) => (typeof piece === "number" ? new Array<null>(piece).fill(null) : Array.from(piece, (char) => char.codePointAt(0) ?? 0)));
  const any = new Uint32Array(Math.ceil(points.length / 32));
  const setBit = (mask: Uint32Array, index: number): void => {
    mask[index >>> 5] = (mask[index >>> 5] ?? 0) | (1 << (index & 31));
  };
  points.forEach((point, index) => point === null && setBit(any, index));
  const masks = new Map<number, Uint32Array>();
  points.forEach((point, index) => {
    if (point === null) return;
    const mask = masks.get(point) ?? Uint32Array.from(any);
    setBit(mask, index);
    masks.set(point, mask);
  });
  return { masks, any, last: 1 << ((points.length - 1) & 31) };
}

/** `count` code points on from `position`, or -1 past the end. */
function stepForward(text: string, position: number, count: number): number {
  let at = position;
  for (let step = 0; step < count; step += 1) {
    if (at >= text.length) return -1;
    at += isHigh(text.charCodeAt(at)) && isLow(text.charCodeAt(at + 1)) ? 2 : 1;
  }
  return at;
}

/** `count` code points back from `position`, or -1 before the start. */
function stepBack(text: string, position: number, count: number): number {
  let at = position;
  for (let step = 0; step < count; step += 1) {
    if (at <= 0) return -1;
    at -= isLow(text.charCodeAt(at - 1)) && isHigh(text.charCodeAt(at - 2)) ? 2 : 1;
  }
  return at;
}

/** Not between the two halves of a surrogate pair. */
function isBoundary(text: string, position: number): boolean {
  return !(isLow(text.charCodeAt(position)) && isHigh(text.charCodeAt(position - 1)));
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
