// A one-line progress indicator on a terminal stream, redrawn in place and erased completely on stop.
// It owns a timer, so whoever starts it stops it (the renderer does on every event that prints).
import { clipToWidth } from "./text-layout.js";

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 80;
const CLEAR_LINE = "\r\u001b[K";

export interface Spinner {
  /** `sinceMs`: when the work it shows began (Date.now()); the line then counts the seconds. */
  start(label: string, sinceMs?: number): void;
  stop(): void;
  /** Steps aside for what `print` writes, then shows again what it showed, if it was showing. */
  aside(print: () => void): void;
}

/** A label keeps at least this many columns: on a narrower line the hint is left out. */
const MIN_LABEL_COLUMNS = 12;

/**
 * When disabled (the stream is not a terminal) it draws nothing at all; `width` cuts the line to the terminal;
 * `hint` ends the line (how to stop what it shows) where the width leaves room for it.
 */
export function createSpinner(write: (text: string) => void, enabled: boolean, width?: () => number | undefined, hint?: string): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let label = "";
  let since: number | undefined;
  let frame = 0;
  const draw = (): void => {
    const elapsed = since === undefined ? "" : ` · ${Math.floor((Date.now() - since) / 1000)} s`;
    const columns = (width?.() ?? Number.POSITIVE_INFINITY) - 3 - elapsed.length;
    const tail = hint === undefined || columns - hint.length - 3 < MIN_LABEL_COLUMNS ? elapsed : `${elapsed} · ${hint}`;
    // The elapsed time (and the hint) stay in view: the label gives way when the line is too long.
    const room = columns - (tail.length - elapsed.length);
    const shown = clipToWidth(label, Math.max(0, room));
    write(`${CLEAR_LINE}${SPINNER_FRAMES[frame % SPINNER_FRAMES.length] ?? ""} ${shown}${tail}`);
    frame += 1;
  };
  const start = (next: string, sinceMs: number | undefined): void => {
    if (!enabled) return;
    label = next;
    since = sinceMs;
    draw();
    if (timer === undefined) {
      timer = setInterval(draw, SPINNER_INTERVAL_MS);
      timer.unref();
    }
  };
  const stop = (): void => {
    if (timer === undefined) return;
    clearInterval(timer);
    timer = undefined;
    write(CLEAR_LINE);
  };
  return {
    start,
    stop,
    aside(print) {
      const showing = timer !== undefined;
      stop();
      print();
      if (showing) start(label, since);
    },
  };
}
