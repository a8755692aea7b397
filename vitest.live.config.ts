import { defineConfig } from "vitest/config";

/** `npm run test:live`: scenarios against a real model (SPILLWAY_LIVE_MODEL). */
export default defineConfig({
  test: {
    include: ["test/live/**/*.live.test.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});
