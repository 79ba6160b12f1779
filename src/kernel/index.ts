// The public surface of src/kernel: the rest of the program imports this folder only through here.
export * from "./agent.js";
export * from "./decision.js";
export * from "./events.js";
export * from "./gate.js";
export * from "./model.js";
export * from "./snapshots.js";
export * from "./tool.js";
export * from "./transcript.js";
export * from "./truncate.js";
