/**
 * The eval commands' shared argument helpers: a refusal names the flag and what would be valid,
 * shows the usage and exits with code 2; `--help` exits with code 0.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { cliArgs } from "../../eval/cli-args.js";

const USAGE = "usage: npm run eval:x -- [--cells N]";

/** Runs `act` with process.exit and the streams caught: the exit code and what was written. */
function caught(act: () => unknown): { code: number | undefined; stderr: string; stdout: string } {
  let stderr = "";
  let stdout = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw Object.assign(new Error("exit"), { exitCode: code });
  });
  try {
    act();
    return { code: undefined, stderr, stdout };
  } catch (error) {
    return { code: (error as { exitCode?: number }).exitCode, stderr, stdout };
  } finally {
    vi.restoreAllMocks();
  }
}

describe("eval command arguments", () => {
  afterEach(() => vi.restoreAllMocks());

  it("takes a whole number at or above the least, and refuses others naming the flag", () => {
    const { wholeNumber } = cliArgs(USAGE);
    expect(wholeNumber("--cells", "12", 1)).toBe(12);
    expect(wholeNumber("--seed", "0", 0)).toBe(0);
    for (const bad of ["0", "1.5", "x", "", " ", undefined]) {
      const refused = caught(() => wholeNumber("--cells", bad, 1));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(
        `--cells needs a whole number, at least 1; got "${bad ?? ""}"`,
      );
      expect(refused.stderr).toContain(USAGE);
    }
  });

  it("fails with code 2 and the usage, and prints help with code 0", () => {
    const { fail, help } = cliArgs(USAGE);
    const failed = caught(() => fail("unknown option --bogus"));
    expect(failed).toMatchObject({ code: 2, stdout: "" });
    expect(failed.stderr).toBe(`unknown option --bogus\n${USAGE}\n`);
    expect(caught(help)).toEqual({ code: 0, stderr: "", stdout: `${USAGE}\n` });
  });
});
