import { defineConfig } from "vitest/config";

/**
 * `npm run test:live`: scenarios against a real model (by default the local test model,
 * `npm run model:fetch`; SPILLWAY_LIVE_MODEL picks another). One file, one worker: the model
 * is loaded once and reused by every scenario.
 */
export default defineConfig({
  test: {
    include: ["test/live/**/*.live.test.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
