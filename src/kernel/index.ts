// The public surface of src/kernel: the rest of the program imports this folder only through here.
export * from "./agent.js";
export { CHARS_PER_TOKEN, COMPACT_AT_TOKENS, CONTEXT_WINDOW_TOKENS, estimatedTokens } from "./compaction.js";
export * from "./gate.js";
export { NEVER_STARTED_TEXT, replayHistory, STARTED_OUTCOME_UNKNOWN_TEXT } from "./history.js";
export * from "./ports.js";
export { describeError, printable } from "./settle.js";
export * from "./tool.js";
export * from "./redaction.js";
export { PLAIN_COMMAND_CHARACTERS } from "./shell-command.js";
export { stableJson } from "./stable-json.js";
export { judgeCall, MAX_RESULT_CHARS, truncateResult, type TruncatedText } from "./tool-call.js";
export * from "./tool-search.js";
export { DEFAULT_TOOL_SEARCH, definitionTokens, replayLoadedTools, TOOL_SEARCH_NAME, type DeferredTool, type ToolSearchMode } from "./tool-offer.js";
export { withinTimeLimit } from "./time-limit.js";
export { sanitizeNamePart, serverSideName } from "./remote-names.js";
export { isKnownToOnlyRead } from "./command-options.js";
export * from "./rule.js";
export * from "./turn-stops.js";
