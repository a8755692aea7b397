/**
 * The web inspector's build: Preact with Vite, into dist/inspector so `spillway serve`
 * (and `npx spillway serve`) serves it at `/`.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here("."),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: here("../../dist/inspector"),
    emptyOutDir: true,
    target: "es2022",
    sourcemap: false,
  },
  server: { proxy: { "/v1": "http://127.0.0.1:7411", "/openapi.json": "http://127.0.0.1:7411" } },
});
