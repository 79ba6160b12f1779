import { describe, expect, it } from "vitest";
import { pickMutualVersion, readSupportedVersions } from "./protocol-version.js";

describe("pickMutualVersion", () => {
  it("keeps the current version when the server offers it", () => {
    expect(pickMutualVersion(["2099-01-01", "2026-07-28"], "2026-07-28")).toBe("2026-07-28");
  });

  it("finds a version both sides support", () => {
    expect(pickMutualVersion(["2026-07-28"], "2099-01-01")).toBe("2026-07-28");
  });

  it("finds none when the server offers only versions this client does not speak", () => {
    expect(pickMutualVersion(["2099-01-01", "2025-11-25"], "2026-07-28")).toBeUndefined();
  });
});

describe("readSupportedVersions", () => {
  it("reads data.supported of a -32022 error", () => {
    expect(readSupportedVersions({ supported: ["2026-07-28"], requested: "x" })).toEqual(["2026-07-28"]);
  });

  it("refuses anything else", () => {
    expect([readSupportedVersions(undefined), readSupportedVersions({ supported: "2026-07-28" }), readSupportedVersions({ supported: [1] })]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});
