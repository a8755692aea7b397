import { describe, expect, it } from "vitest";
import { diskFullError, remedyFor } from "./sqlite-database.js";

const failure = (code: string) => Object.assign(new Error("failed"), { code });

describe("what a store failure tells the user to do", () => {
  it("a full disk is blamed on the disk, not on permissions", () => {
    for (const error of [failure("ENOSPC"), failure("SQLITE_FULL"), failure("EDQUOT")]) {
      const remedy = remedyFor(error, "/data/spillway");
      expect(remedy).toContain("disk holding /data/spillway is full");
      expect(remedy).not.toContain("you can write");
    }
    // SQLite may say only "disk I/O error": the measured free space decides.
    expect(remedyFor(failure("SQLITE_IOERR_WRITE"), "/h", true)).toContain("is full");
  });

  it("permission problems still ask for a writable directory", () => {
    expect(remedyFor(failure("EACCES"), "/h")).toContain("a directory you can write");
    expect(remedyFor(failure("EROFS"), "/h")).toContain("read-only file system");
  });

  it("a write that runs out of space is STORE_UNAVAILABLE saying nothing was stored", () => {
    const error = diskFullError(failure("ENOSPC"), "/h");
    expect(error?.code).toBe("STORE_UNAVAILABLE");
    expect(error?.message).toContain("full; nothing was stored");
    expect(diskFullError(failure("EIO"), "/h")).toBeUndefined();
  });
});
