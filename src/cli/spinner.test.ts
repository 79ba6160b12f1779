import { describe, expect, it } from "vitest";
import { createSpinner } from "./spinner.js";

describe("createSpinner", () => {
  it("draws a frame with its label at once and erases the line on stop", () => {
    const written: string[] = [];
    const spinner = createSpinner((text) => written.push(text), true);
    spinner.start("thinking");
    spinner.stop();
    expect(written).toEqual(["\r\u001b[K⠋ thinking", "\r\u001b[K"]);
  });

  it("draws nothing when disabled, and stop without start writes nothing", () => {
    const written: string[] = [];
    const disabled = createSpinner((text) => written.push(text), false);
    disabled.start("thinking");
    disabled.stop();
    createSpinner((text) => written.push(text), true).stop();
    expect(written).toEqual([]);
  });
});
