// The public surface of src/selftest: the rest of the program imports this folder only through here.
export * from "./fixture.js";
export * from "./run-selftest.js";
export * from "./seams.js";
