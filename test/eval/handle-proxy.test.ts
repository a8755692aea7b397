/**
 * `npm run eval:handles` (eval/handle-proxy.ts): the handle message of each task, checked for
 * the expected value, with a switch off on demand, and the search by the task's question; a bad
 * flag names what would be valid.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const cli = ["tsx", "eval/handle-proxy.ts", "--seed", "890999", "--tasks", "2", "--json"];

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1)!);

describe("eval:handles", () => {
  it("counts a task whose handle message shows its value, and not with the switch that shows it off", async () => {
    // Task 890999-02 names its record in the question's words; 890999-01 asks for the one IPv6
    // address in a log, which no word of the question finds, only its form (formLines).
    const on = await run("npx", cli);
    expect(on.stdout).toContain("890999-01 app-log/pattern: shown");
    expect(on.stdout).toContain("890999-02 non-latin/lookup: shown");
    expect(lastJson(on.stdout)).toMatchObject({ seed: 890999, tasks: 2, shown: 2, ablate: [] });
    // Whether it is in the search's best result is counted apart, never more often than shown.
    expect(lastJson(on.stdout).best).toBeLessThanOrEqual(1);
    expect(on.stdout).toContain("in the search's best result:");
    // A best result without the task's decoys is a part of those with the value in it.
    expect(lastJson(on.stdout).bestAlone).toBeLessThanOrEqual(lastJson(on.stdout).best);
    expect(on.stdout).toMatch(
      /in it without a decoy: \d+; values of the answer's form beside it there: \d+, in the whole messages: \d+;/,
    );
    // Those in the best result are among those in the whole messages.
    expect(lastJson(on.stdout).lookAlikes).toBeLessThanOrEqual(
      lastJson(on.stdout).lookAlikesInMessages,
    );
    // The search a model makes with its question as the query is counted per task too.
    expect(on.stdout).toContain(
      "get_tool_output's search with the question as its query: the expected value in its best result on 1 of 2 tasks, in its answer on 1",
    );
    expect(lastJson(on.stdout)).toMatchObject({ searchBest: 1, searchAnswer: 1 });
    // The example search is counted too, never more often in its best result than its answer.
    expect(on.stdout).toMatch(/with the handle message's example query: \d+ and \d+/);
    expect(lastJson(on.stdout).exampleBest).toBeLessThanOrEqual(lastJson(on.stdout).exampleAnswer);
    const off = await run("npx", [...cli, "--ablate", "taskSearch"]);
    expect(off.stdout).toContain("890999-02 non-latin/lookup: not shown");
    expect(lastJson(off.stdout)).toMatchObject({ shown: 0, ablate: ["taskSearch"] });
    const formsOff = await run("npx", [...cli, "--ablate", "formLines"]);
    expect(formsOff.stdout).toContain("890999-01 app-log/pattern: not shown");
    expect(lastJson(formsOff.stdout)).toMatchObject({ shown: 1, ablate: ["formLines"] });
  }, 120_000);

  it("refuses an unknown switch, naming the valid ones", async () => {
    const bad = await run("npx", [...cli, "--ablate", "notice"]).catch(
      (error: { stderr: string; code: number }) => error,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain(
      "--ablate: unknown notice; valid: taskSearch, taskRecord, taskFocus",
    );
  }, 120_000);
});
