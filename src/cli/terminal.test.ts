import { afterEach, describe, expect, it } from "vitest";
import { createPromptsAsker, redactingAsker } from "./terminal.js";
import { createMemoryTerminal, destroyMemoryTerminals } from "./test-support/memory-terminal.js";
import { waitFor } from "./test-support/wait-for.js";

const DOWN = "\u001b[B";
const ESCAPE = "\u001b";
afterEach(destroyMemoryTerminals);

function terminal() {
  const { input, output, type, shown } = createMemoryTerminal();
  return { asker: createPromptsAsker({ stdin: input, stdout: output }), type, shown };
}

describe("createPromptsAsker", () => {
  it("keeps asking a text question until the answer passes its check, showing why", async () => {
    const { asker, type, shown } = terminal();
    const answer = asker.text("Login", "", (value) => (value.length < 2 ? "at least 2 characters" : undefined));
    await waitFor("the question", () => shown().includes("Login"));
    type("x\r");
    await waitFor("the reason", () => shown().includes("at least 2 characters"));
    type("y\r");
    expect(await answer).toBe("xy");
  });

  it("asks a multiple choice again when the selection does not pass its check", async () => {
    const { asker, type, shown } = terminal();
    const choices = [
      { title: "Alpha", value: "a" },
      { title: "Beta", value: "b" },
    ] as const;
    const answer = asker.multiselect("Tags", choices, [], (values) => (values.length === 0 ? "pick at least one" : undefined));
    await waitFor("the question", () => shown().includes("Tags"));
    type("\r");
    await waitFor("the reason", () => shown().includes("pick at least one"));
    type(DOWN);
    type(" ");
    type("\r");
    expect(await answer).toEqual(["b"]);
  });

  it("gives undefined when a question is cancelled", async () => {
    const { asker, type, shown } = terminal();
    const answer = asker.confirm("Sure?", false);
    await waitFor("the question", () => shown().includes("Sure?"));
    type(ESCAPE);
    expect(await answer).toBeUndefined();
  });
});

describe("redactingAsker", () => {
  it("shows no secret in a question's explanation, message, choices or starting answer", async () => {
    const { asker, type, shown } = terminal();
    const redacting = redactingAsker(asker, (text) => text.replaceAll("tok-SECRET-1", "[redacted]"));
    redacting.say("the server echoes tok-SECRET-1");
    const picked = redacting.select("Pick tok-SECRET-1", [{ title: "use tok-SECRET-1", value: "a", description: "tok-SECRET-1 here" }]);
    await waitFor("the question", () => shown().includes("Pick"));
    type("\r");
    expect(await picked).toBe("a");
    const typed = redacting.text("Token?", "tok-SECRET-1", () => undefined);
    await waitFor("the text question", () => shown().includes("Token?"));
    type("\r");
    expect(await typed).toBe("[redacted]");
    expect([shown().includes("tok-SECRET-1"), shown().includes("[redacted]")]).toEqual([false, true]);
  });
});
