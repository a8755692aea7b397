import { describe, expect, it } from "vitest";
import { checkedRecord } from "./fixtures/record-harness.js";

/** Three stanzas of a Debian package status file: one record a paragraph, one field a line. */
const STATUS_FILE = [
  "Package: libzstd1",
  "Status: install ok installed",
  "Version: 1.5.4+dfsg2-5",
  "Description: fast lossless compression algorithm",
  " Zstd, short for Zstandard, is a fast lossless compression algorithm.",
  "",
  "Package: postgresql-15",
  "Status: install ok installed",
  "Maintainer: Debian PostgreSQL Maintainers <team+postgresql@tracker.debian.org>",
  "Version: 15.18-0+deb12u1",
  "Depends: locales | locales-all, postgresql-client-15, tzdata",
  "Description: The World's Most Advanced Open Source Relational Database",
  " PostgreSQL, also known as Postgres, is a free and open-source relational",
  " database management system.",
  " .",
  " This package provides the database server for PostgreSQL 15.",
  "Homepage: http://www.postgresql.org/",
  "",
  "Package: curl",
  "Status: install ok installed",
  "Version: 7.88.1-10+deb12u14",
  "Description: command line tool for transferring data with URL syntax",
  "",
].join("\n");

describe("records made of named fields", () => {
  it("a match anywhere in a stanza gives the whole stanza, its other fields included", async () => {
    for (const pattern of [
      "database server for PostgreSQL 15",
      "Package: postgresql-15",
      "Homepage",
    ]) {
      const record = (await checkedRecord(STATUS_FILE, pattern)).record;
      expect(record).toMatchObject({ kind: "block", lineStart: 7, lineEnd: 17 });
      expect(record.text).toContain("Version: 15.18-0+deb12u1");
    }
    const curl = (await checkedRecord(STATUS_FILE, "URL syntax")).record;
    expect(curl).toMatchObject({ lineStart: 19, lineEnd: 22 });
  });

  it("lines that open with the same name are records of their own, not one paragraph", async () => {
    const rows = [
      "item: A-1  store: Osaka  count: 3",
      "item: A-2  store: Kobe  count: 0",
      "item: A-3  store: Nara  count: 7",
      "",
      "item: B-1  store: Osaka  count: 1",
      "item: B-2  store: Kyoto  count: 9",
      "item: B-3  store: Kobe  count: 4",
      "",
    ].join("\n");
    const record = (await checkedRecord(rows, "A-2")).record;
    expect(record.lineStart).toBe(2);
    expect(record.lineEnd).toBe(2);
    expect(record.text).not.toContain("A-1");
  });
});
