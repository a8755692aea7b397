/**
 * The kinds of value a question can name (SW-33): each is found by the words people use for it,
 * and its pattern matches whole values of its shape and nothing that merely looks close.
 */
import { describe, expect, it } from "vitest";
import { valueFormsNamed } from "./task-value-forms.js";

/** The values of `text` that the one kind `question` names matches. */
function valuesOf(question: string, text: string): string[] {
  const forms = valueFormsNamed(question);
  expect(forms, `one kind named by ${JSON.stringify(question)}`).toHaveLength(1);
  return [...text.matchAll(new RegExp(forms[0]!.pattern, "g"))].map((m) => m[0]);
}

describe("valueFormsNamed", () => {
  it("names no kind for a question about words", () => {
    expect(valueFormsNamed("Which request did the boot marker note mention?")).toEqual([]);
    expect(valueFormsNamed("Quel client a passé la commande ?")).toEqual([]);
  });

  it("finds IPv6 addresses, compressed or full, and not times of day or C++ scopes", () => {
    const text =
      "at 12:30:45 std::vector from 2001:db8:b2c1:e8f2::c207 and fe80::1, ::1, 2001:0db8:0000:0000:0000:ff00:0042:8329; 1:2";
    expect(valuesOf("There is one IPv6 address in the log.", text)).toEqual([
      "2001:db8:b2c1:e8f2::c207",
      "fe80::1",
      "::1",
      "2001:0db8:0000:0000:0000:ff00:0042:8329",
    ]);
  });

  it("names both address families for an IP address, and finds only dotted quads of octets", () => {
    expect(valueFormsNamed("Which IP address fetched the file?").map((f) => f.name)).toEqual([
      "IPv4 address",
      "IPv6 address",
    ]);
    const [v4] = valueFormsNamed("Which IPv4 address was refused?");
    const text = "10.0.0.7 refused; version 1.2.3.4.5, 300.1.1.1 and 192.168.1.20.";
    expect([...text.matchAll(new RegExp(v4!.pattern, "g"))].map((m) => m[0])).toEqual([
      "10.0.0.7",
      "192.168.1.20",
    ]);
  });

  it("takes a digest's length from the question, or from the algorithm it names", () => {
    const sha1 = "fab05eb439f03b5ac9b7ca922dec5dcfc753aa4b";
    const sha256 = "393d2b411b49948c7afc34ed4eabb4ac9decc79e58b7d29772c1d1e6026de517";
    const text = `commit ${sha1} image@sha256:${sha256} key=b452d25bfec3105bc2ed10efbf856b35 ${sha1}0`;
    expect(valuesOf("Give me the complete 40-character SHA of the commit.", text)).toEqual([sha1]);
    expect(valuesOf("What SHA-256 checksum does the runbook give?", text)).toEqual([sha256]);
    expect(valuesOf("Which API key (32 hex characters) was passed?", text)).toEqual([
      "b452d25bfec3105bc2ed10efbf856b35",
    ]);
    // No length: a whole run of hex digits as long as a common digest (41 digits is none).
    expect(valuesOf("Which hash is in the log?", text)).toEqual([
      sha1,
      sha256,
      "b452d25bfec3105bc2ed10efbf856b35",
    ]);
  });

  it("takes a number's digit count from the question, in English or Japanese", () => {
    const text = "slip 497048255288 code 4970482552884 at 17:04:11 order 2026112812345678 pin 0042";
    expect(valuesOf("Which 13-digit code is in the notes?", text)).toEqual(["4970482552884"]);
    expect(valuesOf("在庫メモの13桁のコードは?", text)).toEqual(["4970482552884"]);
    expect(valuesOf("The PIN has 4 digits. What is it?", text)).toEqual(["0042"]);
    // Hexadecimal digits are the digest's form; no count, no number form.
    expect(valuesOf("Which 12 hex digits follow the slip?", text)).toEqual(["497048255288"]);
    expect(valueFormsNamed("Which code is in the notes?")).toEqual([]);
    // A layout of groups states no length: the UUID is named, no 12-digit hex value.
    expect(
      valueFormsNamed("Which key is a full UUID (8-4-4-4-12 hex digits)?").map((f) => f.name),
    ).toEqual(["UUID", "hexadecimal digest"]);
  });

  it("finds UUIDs, MAC addresses, e-mail addresses and URLs by the names people use", () => {
    const text =
      "id 314f1889-4839-46b8-af8b-69f97fe6a11f nic 00:1A:2b:3c:4D:5e mail ops.team+alerts@example.co.uk see https://example.com/a?b=1 end";
    expect(valuesOf("Which GUID is it?", text)).toEqual(["314f1889-4839-46b8-af8b-69f97fe6a11f"]);
    expect(valuesOf("What is the NIC's MAC address?", text)).toEqual(["00:1A:2b:3c:4D:5e"]);
    expect(valuesOf("Which e-mail address gets alerts?", text)).toEqual([
      "ops.team+alerts@example.co.uk",
    ]);
    expect(valuesOf("Which URL does it point to?", text)).toEqual(["https://example.com/a?b=1"]);
  });

  it("finds a JSON Web Token whole, a security identifier and an international phone number", () => {
    const jwt =
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.hrYssO82GZMxEuGjOGYuZgYWgfzv-dXKWuU6Tb6KPAc";
    const text = `token=${jwt}; sid S-1-5-21-3171181154-2262787943-69558382-1515 call +31 6 6880 3282 at 2026-03-14`;
    expect(valuesOf("Copy the leaked access token.", text)).toEqual([jwt]);
    expect(valuesOf("Which security identifier was added?", text)).toEqual([
      "S-1-5-21-3171181154-2262787943-69558382-1515",
    ]);
    expect(valuesOf("What phone number is listed?", text)).toEqual(["+31 6 6880 3282"]);
  });
});
