/**
 * A section header of an INI or TOML file (`[pkg.rustfmt-preview]`) has balanced brackets like a
 * one-line JSON array but is no JSON: its record is the section's lines under it, not the line.
 */
import { describe, expect, it } from "vitest";
import { checkedRecord } from "./fixtures/record-harness.js";

/** A channel manifest in TOML: a version at the top, then packages, each with targets. */
function manifest(): string {
  const lines = ['manifest-version = "2"', 'date = "2026-04-16"', ""];
  const packages = ["cargo", "clippy-preview", "rust-docs", "rustfmt-preview", "rustc"];
  for (const [i, name] of packages.entries()) {
    lines.push(`[pkg.${name}]`, `version = "1.${i + 5}.0"`, "");
    for (const target of ["aarch64-apple-darwin", "x86_64-unknown-linux-gnu"])
      lines.push(
        `[pkg.${name}.target.${target}]`,
        "available = true",
        `url = "https://static.example.org/dist/${name}-${target}.tar.gz"`,
        "",
      );
  }
  return lines.join("\n");
}

describe("section headers of INI and TOML files", () => {
  it("a match on a TOML table's header brings the table's keys, not the header alone", async () => {
    const { record, opened } = await checkedRecord(manifest(), "[pkg.rustfmt-preview]");
    expect(opened.record.kind).not.toBe("json");
    expect(record.kind).not.toBe("json-object");
    expect(record.text).toBe('[pkg.rustfmt-preview]\nversion = "1.8.0"');
  });

  it("an INI section header brings its keys", async () => {
    const ini = [
      "[core]",
      "\trepositoryformatversion = 0",
      "\tbare = false",
      "",
      '[remote "origin"]',
      "\turl = https://example.org/repo.git",
      "\tfetch = +refs/heads/*:refs/remotes/origin/*",
      "",
      "[user]",
      "\tname = Ada",
      "",
    ].join("\n");
    const { record } = await checkedRecord(ini, '[remote "origin"]');
    expect(record.text).toContain("url = https://example.org/repo.git");
    expect(record.text).not.toContain("[core]");
  });

  it("a line that is JSON among text lines is still its own record", async () => {
    const text = [
      "starting worker 3",
      '{"event":"charge","order":"ord-7","status":"declined","amount":4200}',
      "worker 3 idle",
      '[{"event":"refund","order":"ord-9"}]',
      "done",
    ].join("\n");
    const charge = await checkedRecord(text, '"order":"ord-7"');
    expect(charge.record).toMatchObject({ lineStart: 2, lineEnd: 2 });
    expect(JSON.parse(charge.record.text)).toMatchObject({ status: "declined" });
    const refund = await checkedRecord(text, '"order":"ord-9"');
    expect(refund.record).toMatchObject({ lineStart: 4, lineEnd: 4 });
  });
});
