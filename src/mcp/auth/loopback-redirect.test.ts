import { describe, expect, it } from "vitest";
import { startLoopbackAuthorizer } from "./loopback-redirect.js";

describe("startLoopbackAuthorizer", () => {
  it("listens on 127.0.0.1 and resolves with the redirect the browser brings back, after the URL was shown", async () => {
    const shown: string[] = [];
    const authorizer = await startLoopbackAuthorizer({
      open: async (url) => {
        shown.push(url.href);
        const back = new URL(authorizer.redirectUri);
        back.searchParams.set("code", "c-1");
        expect((await fetch(new URL("/elsewhere", back))).status).toBe(404);
        expect(await (await fetch(back)).text()).toContain("The login is complete");
      },
    });
    try {
      expect(authorizer.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const redirect = await authorizer.visit(new URL("https://auth.example.com/authorize?x=1"));
      expect(shown).toEqual(["https://auth.example.com/authorize?x=1"]);
      expect(redirect.searchParams.get("code")).toBe("c-1");
    } finally {
      await authorizer.close();
    }
  });

  it("gives up on a browser that never comes back", async () => {
    const authorizer = await startLoopbackAuthorizer({ open: () => undefined, waitMs: 50 });
    try {
      await expect(authorizer.visit(new URL("https://auth.example.com/authorize"))).rejects.toThrow("no answer from the browser within 0 s");
    } finally {
      await authorizer.close();
    }
  });

  it("awaits no redirect once showing the URL failed", async () => {
    const authorizer = await startLoopbackAuthorizer({
      open: () => {
        throw new Error("only http: and https: URLs are opened");
      },
    });
    try {
      await expect(authorizer.visit(new URL("file:///etc/passwd"))).rejects.toThrow("only http: and https: URLs are opened");
      expect((await fetch(`${authorizer.redirectUri}?code=c-1`)).status).toBe(404);
    } finally {
      await authorizer.close();
    }
  });
});
