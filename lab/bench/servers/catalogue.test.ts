import { describe, expect, it } from "vitest";
import { CATALOGUE_TOOLS_PER_SERVER, catalogueTool } from "./catalogue.js";

describe("catalogueTool", () => {
  it("describes a tool of the workspace's domain with its id parameter required", () => {
    expect(catalogueTool(3, 12)).toEqual({
      name: "get_cookie",
      description: "Reads one cookie with all of its fields and the people who changed it last, in the browser of workspace 3. Returns the cookie as JSON, or an error naming the id when it does not exist.",
      inputSchema: { type: "object", properties: { cookie_id: { type: "string", description: "The id of the cookie." } }, required: ["cookie_id"] },
    });
  });

  it("gives a server distinct names up to its count, and wraps after it", () => {
    const names = Array.from({ length: CATALOGUE_TOOLS_PER_SERVER }, (_, index) => catalogueTool(7, index).name);
    expect([new Set(names).size, catalogueTool(7, CATALOGUE_TOOLS_PER_SERVER).name]).toEqual([100, names[0]]);
  });

  it("sizes a definition like a real server's: a few hundred characters of JSON", () => {
    const lengths = Array.from({ length: CATALOGUE_TOOLS_PER_SERVER }, (_, index) => JSON.stringify(catalogueTool(0, index)).length);
    expect([Math.min(...lengths) >= 250, Math.max(...lengths) <= 700]).toEqual([true, true]);
  });
});
