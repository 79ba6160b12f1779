// The chat tests poll through the kernel's waitFor (shared with the mcp tests, which may not import src/cli).
export { waitFor } from "../../kernel/test-support/wait-for.js";
