import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Live scenarios need a real model: `npm run test:live` (vitest.live.config.ts).
    exclude: ["test/live/**", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: ".test-report/vitest.json" }]],
  },
});
