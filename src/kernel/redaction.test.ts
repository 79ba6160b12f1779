import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "./ports.js";
import type { ToolImage } from "./tool.js";
import {
  createRedactor,
  createStreamRedactor,
  liveRedactor,
  redactArgs,
  redactEvents,
  REDACTED,
  secretForms,
  secretsIn,
  withoutModelKeys,
  type Redact,
} from "./redaction.js";

describe("createRedactor", () => {
  it("replaces every occurrence of each secret, whatever its case", () => {
    const redact = createRedactor(["sk-SECRET-123", "tok(en)+"]);
    expect(redact("a sk-secret-123 b SK-SECRET-123 c tok(en)+ d")).toBe(`a ${REDACTED} b ${REDACTED} c ${REDACTED} d`);
  });

  it("leaves short values and text without secrets alone", () => {
    const redact = createRedactor(["1", "true", "abcdef"]);
    expect(redact("true 1 abcde")).toBe("true 1 abcde");
    expect(createRedactor([])("anything")).toBe("anything");
  });

  it("prefers the longer secret when one contains another", () => {
    const redact = createRedactor(["secret", "secret-and-more"]);
    expect(redact("x secret-and-more y")).toBe(`x ${REDACTED} y`);
  });

  it("replaces the secret inside a JSON string, where its quotes and backslashes are escaped", () => {
    const secret = 'pa"ss\\word-1';
    const line = JSON.stringify({ text: `key=${secret};` });
    expect(createRedactor([secret])(line)).toBe(`{"text":"key=${REDACTED};"}`);
  });

  it("replaces the secret URL-encoded in a query string", () => {
    const secret = "p@ss word/+=1";
    expect(createRedactor([secret])(`https://x.test/?token=${encodeURIComponent(secret)}&a=1`)).toBe(`https://x.test/?token=${REDACTED}&a=1`);
  });

  it("replaces the secret inside a longer base64 or base64url text, at every byte offset", () => {
    const secret = "sk-ant-api03-\u00e9t\u00e9~?>";
    const redact = createRedactor([secret]);
    for (const alphabet of ["base64", "base64url"] as const) {
      for (const before of ["", "A", "AB", "ABC=", "HOME=/root\nANTHROPIC_API_KEY="]) {
        for (const after of ["", "\n", "\nPATH=/bin\n", "xy"]) {
          const encoded = Buffer.from(`${before}${secret}${after}`).toString(alphabet);
          const shown = redact(`out: ${encoded} end`);
          expect(shown).toContain(REDACTED);
          // What is left of the encoding around the marker no longer decodes to the secret or most of it.
          const rest = shown.replace("out: ", "").replace(" end", "").split(REDACTED);
          for (const piece of rest) expect(Buffer.from(piece, alphabet).toString("latin1").length).toBeLessThan(before.length + after.length + 3);
        }
      }
    }
  });

  it("looks for base64 forms only of secrets of 8 characters or more", () => {
    const secret = "short7!";
    const encoded = Buffer.from(`x${secret}`).toString("base64");
    expect(createRedactor([secret])(encoded)).toBe(encoded);
  });
});

describe("secretForms", () => {
  it("lists the secret as written, JSON-escaped, URL-encoded, in hex and in base64 and base64url at three offsets, without repeats", () => {
    const plain = (text: string) => ({ text, wrapped: false });
    const wrapped = (text: string) => ({ text, wrapped: true });
    expect(secretForms('ab"cd/ef?')).toEqual([
      plain('ab"cd/ef?'),
      plain('ab\\"cd/ef?'),
      plain("ab%22cd%2Fef%3F"),
      wrapped("6162226364 2f65663f".replace(" ", "")),
      // base64 at offset 0; at 1 (two leading characters depend on the byte before); at 2 (three do).
      wrapped("YWIiY2QvZWY/"),
      wrapped("FiImNkL2VmP"),
      wrapped("hYiJjZC9lZj"),
      // base64url differs from base64 only where a character is `/` or `+`.
      wrapped("YWIiY2QvZWY_"),
    ]);
    expect(secretForms("short")).toEqual([]);
  });

  it("finds an encoded secret that the encoder wrapped onto the next line, as base64 and xxd -p print it", () => {
    const secret = "sk-ant-api03-0123456789abcdefghijklmnopqrstuvwxyz";
    const environ = `HOME=/root\0PATH=/usr/bin\0ANTHROPIC_API_KEY=${secret}\0LANG=C\0`;
    const base64 = execFileSync("base64", { input: environ, encoding: "utf8" });
    // As `xxd -p` prints it: 60 hex digits a line.
    const hex = `${(Buffer.from(environ).toString("hex").match(/.{1,60}/gu) ?? []).join("\n")}\n`;
    const redact = createRedactor([secret]);
    const decodedAfter = (text: string, encoding: "base64" | "hex"): string => Buffer.from(text.replaceAll(REDACTED, "").replace(/\s/gu, ""), encoding).toString("utf8");
    expect([base64.includes("\n"), redact(base64).includes(REDACTED), decodedAfter(redact(base64), "base64").includes("0123456789abcdef")]).toEqual([true, true, false]);
    expect([hex.includes("\n"), redact(hex).includes(REDACTED), decodedAfter(redact(hex), "hex").includes("0123456789abcdef")]).toEqual([true, true, false]);
  });
});

describe("createStreamRedactor", () => {
  const secret = "sk-ant-0123456789";
  const redact = createRedactor([secret]);
  const text = `before ${secret} after`;

  it("never prints a secret cut across two pieces, wherever the cut falls, and prints all the rest", () => {
    for (let cut = 0; cut <= text.length; cut += 1) {
      const stream = createStreamRedactor(redact);
      const printed = [stream.push(text.slice(0, cut)), stream.push(text.slice(cut)), stream.flush()];
      expect(printed.join("")).toBe(`before ${REDACTED} after`);
      for (const piece of printed) expect(piece.toLowerCase()).not.toContain("sk-ant-0");
    }
  });

  it("never prints a secret that arrives a character at a time, in any of its forms", () => {
    for (const { text: form } of secretForms(secret)) {
      const stream = createStreamRedactor(redact);
      const printed = [...`x${form}y`].map((char) => stream.push(char));
      printed.push(stream.flush());
      expect(printed.join("")).toBe(`x${REDACTED}y`);
    }
  });

  it("holds back no more than the longest form (with its line breaks, when wrapped) less one character", () => {
    const stream = createStreamRedactor(redact);
    const longest = Math.max(...secretForms(secret).map((form) => form.text.length + (form.wrapped ? 2 * Math.ceil(form.text.length / 60) : 0)));
    const words = "w".repeat(100);
    expect(stream.push(words)).toBe("w".repeat(100 - (longest - 1)));
    expect(stream.flush()).toBe("w".repeat(longest - 1));
  });

  it("does not cut a character outside the basic plane in two", () => {
    const stream = createStreamRedactor(createRedactor(["abcdefgh"]));
    // The hold is 17 characters (the hex form of 8 bytes takes 16, and a line break 2): the cut would fall inside the emoji.
    const shown = stream.push(`${"z".repeat(5)}\u{1f600}${"y".repeat(16)}`);
    expect(shown).toBe("zzzzz");
    expect(stream.flush()).toBe(`\u{1f600}${"y".repeat(16)}`);
  });

  it("redacts each piece alone when the redactor cannot split a stream", () => {
    const plain: Redact = (piece) => piece.replaceAll("secret", REDACTED);
    const stream = createStreamRedactor(plain);
    expect([stream.push("a secret b"), stream.flush()]).toEqual([`a ${REDACTED} b`, ""]);
  });
});

describe("liveRedactor", () => {
  it("redacts and splits with the redactor current at each use", () => {
    let current = createRedactor(["first-secret"]);
    const redact = liveRedactor(() => current);
    expect(redact("first-secret second-secret")).toBe(`${REDACTED} second-secret`);
    current = createRedactor(["first-secret", "second-secret"]);
    expect(redact("first-secret second-secret")).toBe(`${REDACTED} ${REDACTED}`);
    const stream = createStreamRedactor(redact);
    expect([stream.push("x second-se"), stream.push("cret y"), stream.flush()].join("")).toBe(`x ${REDACTED} y`);
  });
});

describe("redactEvents", () => {
  const secret = "tok-0123456789";
  const listen = (): { events: AgentEvent[]; emit: (event: AgentEvent) => void } => {
    const events: AgentEvent[] = [];
    return { events, emit: redactEvents((event) => events.push(event), createRedactor([secret])) };
  };

  it("holds streamed words that may begin a secret until the next event, then gives them first", () => {
    const { events, emit } = listen();
    emit({ type: "text", delta: "the key is tok-01" });
    emit({ type: "text", delta: "23456789." });
    emit({ type: "turn_end", reason: "done" });
    expect(events.map((event) => (event.type === "text" ? event.delta : event.type)).join("")).toBe(`the key is ${REDACTED}.turn_end`);
    expect(JSON.stringify(events)).not.toContain("tok-0");
  });

  it("redacts the arguments, results, progress, approval reasons and messages of every other event", () => {
    const { events, emit } = listen();
    const encoded = encodeURIComponent(`"${secret}"`);
    emit({ type: "tool_start", callId: "c1", tool: "bash", args: { command: `curl -H 'x: ${secret}'`, list: [secret, 3, { [secret]: true }] } });
    emit({ type: "tool_progress", callId: "c1", message: `sent ${secret}` });
    emit({ type: "approval", callId: "c1", tool: "bash", decision: { verdict: "ask", reason: `rule ${secret}` }, answer: "once" });
    emit({ type: "tool_end", callId: "c1", tool: "bash", isError: false, text: `got ${encoded}`, truncated: false });
    emit({ type: "notice", message: `a ${secret}` });
    emit({ type: "error", message: `b ${secret}` });
    emit({ type: "usage", model: "m", usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } });
    expect(events).toEqual([
      { type: "tool_start", callId: "c1", tool: "bash", args: { command: `curl -H 'x: ${REDACTED}'`, list: [REDACTED, 3, { [REDACTED]: true }] } },
      { type: "tool_progress", callId: "c1", message: `sent ${REDACTED}` },
      { type: "approval", callId: "c1", tool: "bash", decision: { verdict: "ask", reason: `rule ${REDACTED}` }, answer: "once" },
      { type: "tool_end", callId: "c1", tool: "bash", isError: false, text: `got %22${REDACTED}%22`, truncated: false },
      { type: "notice", message: `a ${REDACTED}` },
      { type: "error", message: `b ${REDACTED}` },
      { type: "usage", model: "m", usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } },
    ]);
  });

  it("redacts a message's words, tool names, arguments and results, and leaves its images and the rest as they are", () => {
    const { events, emit } = listen();
    const image: ToolImage = { mediaType: "image/png", data: "iVBORw0KGgo=", bytes: 8, width: 1, height: 1 };
    emit({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `key ${secret}` }, { type: "tool_use", id: "t1", name: "bash", input: { command: `echo ${secret}` } }] }, model: "m", stopReason: "tool_use" });
    emit({ type: "message", message: { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: secret, isError: false, images: [image] }, { type: "text", text: `and ${secret}` }, { type: "image", image }] } });
    expect(events).toEqual([
      { type: "message", message: { role: "assistant", content: [{ type: "text", text: `key ${REDACTED}` }, { type: "tool_use", id: "t1", name: "bash", input: { command: `echo ${REDACTED}` } }] }, model: "m", stopReason: "tool_use" },
      { type: "message", message: { role: "user", content: [{ type: "tool_result", toolUseId: "t1", text: REDACTED, isError: false, images: [image] }, { type: "text", text: `and ${REDACTED}` }, { type: "image", image }] } },
    ]);
  });
});

describe("redactArgs", () => {
  it("keeps the shape of the arguments and leaves what holds no secret as it is", () => {
    expect(redactArgs({ a: 1, b: null, c: ["x", { d: false }] }, createRedactor(["secret-value"]))).toEqual({ a: 1, b: null, c: ["x", { d: false }] });
  });
});

describe("secretsIn", () => {
  it("lists each value and the long words inside it, so a token echoed without its scheme is found too", () => {
    expect(secretsIn(["Bearer tok-123456789", "plain-value"])).toEqual(["Bearer tok-123456789", "tok-123456789", "plain-value"]);
    expect(createRedactor(secretsIn(["Bearer tok-123456789"]))("got tok-123456789")).toBe(`got ${REDACTED}`);
  });
});

describe("withoutModelKeys", () => {
  it("drops the model's credential variables and unset values, and keeps the rest", () => {
    expect(withoutModelKeys({ PATH: "/bin", ANTHROPIC_API_KEY: "sk-1", ANTHROPIC_AUTH_TOKEN: "t", HOME: undefined })).toEqual({ PATH: "/bin" });
  });
});
