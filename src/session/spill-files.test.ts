import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAgent, type AgentEvent } from "../kernel/index.js";
import { answering, eventLog, fakeTool, memorySnapshots, memoryTranscript, reply, scriptedModel, text, use } from "../kernel/test-support/fakes.js";
import { createLocalTools } from "../tools/index.js";
import { createSpillFiles, pruneSpillFiles } from "./spill-files.js";
import { tempStatePerTest } from "./test-support/temp-state.js";
import { openTranscript } from "./transcript-file.js";

const state = tempStatePerTest("mca-spill-");

/** 3,000 numbered lines: 38,890 characters, far over the 8,000-character budget. */
const LONG_RESULT = Array.from({ length: 3000 }, (_, index) => `line ${index + 1}`).join("\n");

describe("createSpillFiles", () => {
  it("keeps a text whole in spill/<session>/<call>.txt, readable by the user only", async () => {
    const spill = createSpillFiles(state(), "s1");
    const path = await spill.spill("toolu_01", LONG_RESULT);
    expect({ path, text: readFileSync(path, "utf8"), mode: statSync(path).mode & 0o777 }).toEqual({
      path: join(state().dir, "spill", "s1", "toolu_01.txt"),
      text: LONG_RESULT,
      mode: 0o600,
    });
  });

  it("names the file of a call id that is not a plain word by a number", async () => {
    const spill = createSpillFiles(state(), "s1");
    expect(await spill.spill("../../escape", "x")).toEqual(join(state().dir, "spill", "s1", "call-1.txt"));
  });

  it("never writes through a symlink left at a file's name", async () => {
    const spill = createSpillFiles(state(), "s1");
    await spill.spill("first", "x");
    const outside = join(state().projectDir, "victim.txt");
    writeFileSync(outside, "untouched");
    symlinkSync(outside, join(spill.dir, "toolu_02.txt"));
    await expect(spill.spill("toolu_02", "overwritten")).rejects.toThrow();
    expect(readFileSync(outside, "utf8")).toEqual("untouched");
  });

  it("takes only this session's files as spill files, by the path as written", async () => {
    const spill = createSpillFiles(state(), "s1");
    await spill.spill("a", "x");
    const dir = join(state().dir, "spill");
    expect(
      [join(dir, "s1", "a.txt"), join(dir, "s2", "a.txt"), `${dir}/s1/../s2/a.txt`, join(dir, "s1", "a.jsonl"), "spill/s1/a.txt", join(dir, "s1", "x", "a.txt")].map(
        (path) => spill.isSpillFile(path),
      ),
    ).toEqual([true, false, false, false, false, false]);
  });

  it("takes no file as a spill file while its session's folder is a symlink", async () => {
    const elsewhere = join(state().dir, "elsewhere");
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(join(state().dir, "spill"), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(state().dir, "spill", "s3"));
    writeFileSync(join(elsewhere, "a.txt"), "not mca's");
    expect(createSpillFiles(state(), "s3").isSpillFile(join(state().dir, "spill", "s3", "a.txt"))).toBe(false);
  });
});

describe("pruneSpillFiles", () => {
  it("removes the spill files of sessions whose transcript is gone and keeps the others and the starting one", async () => {
    openTranscript(state(), "kept", { mode: "chat", startedAt: "2026-01-01T00:00:00Z", snapshots: "kept" }).append({ type: "clear" });
    for (const id of ["kept", "removed", "starting"]) await createSpillFiles(state(), id).spill("c", "x");
    pruneSpillFiles(state(), "starting");
    const root = join(state().dir, "spill");
    expect(["kept", "removed", "starting"].map((id) => existsSync(join(root, id)))).toEqual([true, false, true]);
  });

  it("does nothing when no result was ever kept", () => {
    mkdirSync(state().dir, { recursive: true });
    expect(() => pruneSpillFiles(state(), "s1")).not.toThrow();
  });
});

describe("a result over the budget, read back by the model", () => {
  it("is read on from where it was cut with the read_file call its note gives, without asking", async () => {
    const spill = createSpillFiles(state(), "s1");
    const tools = [
      fakeTool({ name: "big", run: async () => ({ text: LONG_RESULT, isError: false }) }),
      ...createLocalTools(state().projectDir, { isSpillFile: spill.isSpillFile }).filter((tool) => tool.name === "read_file"),
    ];
    const { events, emit } = eventLog();
    const approval = answering();
    /** The model does what the note says: the read_file call it names, as written there. */
    const model = scriptedModel([
      () => reply(use("toolu_big", "big")),
      (request) => {
        const last = request.messages.at(-1)?.content.at(-1);
        const note = last?.type === "tool_result" ? /read_file (\{.*\}) \(allowed without asking\)\]$/u.exec(last.text) : null;
        if (note?.[1] === undefined) throw new Error("the cut result names no read_file call");
        return reply(use("toolu_read", "read_file", JSON.parse(note[1])));
      },
      () => reply(text("read it")),
    ]);
    const agent = createAgent({ model, tools, rules: [], system: "", approve: approval.approve, snapshots: memorySnapshots(), transcript: memoryTranscript(), emit, spill });
    await agent.prompt("go", new AbortController().signal);

    const ends = events.filter((event): event is Extract<AgentEvent, { type: "tool_end" }> => event.type === "tool_end");
    const path = join(state().dir, "spill", "s1", "toolu_big.txt");
    const cutAt = LONG_RESULT.slice(0, 8000).split("\n").length;
    expect(ends[0]).toEqual({
      type: "tool_end",
      callId: "toolu_big",
      tool: "big",
      isError: false,
      truncated: true,
      spill: path,
      text: `${LONG_RESULT.slice(0, 8000)}\n\n[${LONG_RESULT.length - 8000} more characters were cut to fit the budget. The whole result is kept in ${path}: read the rest with read_file ${JSON.stringify({ path, offset: cutAt })} (allowed without asking)]`,
    });
    const read = model.seen[2]?.at(-1)?.content.at(-1);
    const readText = read?.type === "tool_result" ? read.text : "";
    expect({ asked: approval.asked, isError: ends[1]?.isError, first: readText.split("\n")[0] }).toEqual({
      asked: [],
      isError: false,
      first: `${cutAt}\tline ${cutAt}`,
    });
  });

  it("is the only file outside the project read_file reads", async () => {
    const spill = createSpillFiles(state(), "s1");
    const [readFile] = createLocalTools(state().projectDir, { isSpillFile: spill.isSpillFile }).filter((tool) => tool.name === "read_file");
    const other = join(state().dir, "spill", "s2", "c.txt");
    await createSpillFiles(state(), "s2").spill("c", "secret");
    const parsed = readFile?.parse?.({ path: other });
    if (readFile === undefined || parsed === undefined || parsed instanceof Error) throw new Error("no read_file");
    expect(await readFile.run(parsed, { signal: new AbortController().signal, onProgress: () => undefined })).toEqual({
      isError: true,
      text: `path ${other} is outside the project folder ${state().projectDir}`,
    });
  });
});
