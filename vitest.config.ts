import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Live scenarios need a real model: `npm run test:live` (vitest.live.config.ts).
    exclude: ["test/live/**", "**/node_modules/**"],
    // Most test files wait on child processes, servers and timers rather than compute: two at
    // once at least, also on a two-core machine, where vitest's default (cores - 1) runs them
    // one by one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 60_000,
    // Seed 004's runtime assertions throw instead of only warning, in every test.
    env: { SPILLWAY_STRICT_INVARIANTS: "1" },
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".test-report/vitest.json" }]],
  },
});
