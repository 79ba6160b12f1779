// A one-line progress indicator on a terminal stream, redrawn in place and erased completely on stop.
// It owns a timer, so whoever starts it stops it (the renderer does on every event that prints).

const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 80;
const CLEAR_LINE = "\r\u001b[K";

export interface Spinner {
  start(label: string): void;
  stop(): void;
}

/** When disabled (the stream is not a terminal) it draws nothing at all. */
export function createSpinner(write: (text: string) => void, enabled: boolean): Spinner {
  let timer: NodeJS.Timeout | undefined;
  let label = "";
  let frame = 0;
  const draw = (): void => {
    write(`${CLEAR_LINE}${SPINNER_FRAMES[frame % SPINNER_FRAMES.length] ?? ""} ${label}`);
    frame += 1;
  };
  return {
    start(next) {
      if (!enabled) return;
      label = next;
      draw();
      if (timer === undefined) {
        timer = setInterval(draw, SPINNER_INTERVAL_MS);
        timer.unref();
      }
    },
    stop() {
      if (timer === undefined) return;
      clearInterval(timer);
      timer = undefined;
      write(CLEAR_LINE);
    },
  };
}
