import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { asyncFailureOf } from "../../test/helpers/spillway-failure.js";
import { projectDirs, writeText } from "../../test/helpers/temp-dirs.js";
import { findConfigFile, loadConfig } from "./config-file.js";

const dirs = projectDirs();
let root = "";
let cwd = "";
let home = "";
beforeEach(() => {
  ({ root, cwd, home } = dirs);
});
const write = writeText;

const failure = asyncFailureOf;

describe("findConfigFile", () => {
  it("finds nothing when neither folder has a config file", async () => {
    expect(await findConfigFile({ cwd, home })).toBeUndefined();
  });

  it("looks in cwd first, then in home", async () => {
    const inHome = write(join(home, "spillway.config.yml"), "{}");
    expect(await findConfigFile({ cwd, home })).toBe(inHome);
    const inCwd = write(join(cwd, "spillway.config.json"), "{}");
    expect(await findConfigFile({ cwd, home })).toBe(inCwd);
  });

  it("finds each of the three names", async () => {
    for (const name of ["spillway.config.json", "spillway.config.yaml", "spillway.config.yml"]) {
      const path = write(join(cwd, name), "{}");
      expect(await findConfigFile({ cwd, home })).toBe(path);
      rmSync(path);
    }
  });

  it("takes home from $SPILLWAY_HOME when not given", async () => {
    const inHome = write(join(home, "spillway.config.yaml"), "{}");
    expect(await findConfigFile({ cwd, env: { SPILLWAY_HOME: home } })).toBe(inHome);
  });

  it("rejects two config files in the same folder, naming both", async () => {
    const json = write(join(cwd, "spillway.config.json"), "{}");
    const yaml = write(join(cwd, "spillway.config.yaml"), "{}");
    const error = await failure(() => findConfigFile({ cwd, home }));
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toBe(
      `Found 2 config files in ${cwd}: ${json} and ${yaml}; spillway reads one config file per ` +
        "folder, so keep one and delete or rename the other.",
    );
    expect(error.details).toMatchObject({ folder: cwd, files: [json, yaml] });
  });

  it("ignores a folder with the config file name", async () => {
    mkdirSync(join(cwd, "spillway.config.json"));
    expect(await findConfigFile({ cwd, home })).toBeUndefined();
  });
});

describe("loadConfig", () => {
  it("finds and loads, or loads an explicit path, or returns undefined", async () => {
    expect(await loadConfig({ cwd, home })).toBeUndefined();
    write(join(home, "spillway.config.yaml"), "defaults: { maxTurns: 9 }\n");
    expect((await loadConfig({ cwd, home }))?.config.defaults.maxTurns).toBe(9);
    const other = write(join(root, "other.yaml"), "defaults: { maxTurns: 3 }\n");
    expect((await loadConfig({ cwd, home, path: other }))?.config.defaults.maxTurns).toBe(3);
  });
});
