import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Live scenarios need a real model: `npm run test:live` (vitest.live.config.ts).
    exclude: ["test/live/**", "**/node_modules/**"],
    testTimeout: 60_000,
    // Seed 004's runtime assertions throw instead of only warning, in every test.
    env: { SPILLWAY_STRICT_INVARIANTS: "1" },
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".test-report/vitest.json" }]],
  },
});
