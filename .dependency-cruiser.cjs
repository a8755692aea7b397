/**
 * The layer rule, checked by `npm run lint:deps` (part of `npm test`).
 *
 * Layers, top to bottom (docs/architecture.md explains each):
 *
 *   cli · server · gateway · ai · testing   entry points and adapters
 *   agent                                    session loop, internal tools, projection, compaction
 *   surfaces                                 model-facing schemas and texts
 *   extraction · async                       model-driven reads; background execution
 *   retrieval                                pure reads over stored outputs
 *   store                                    canonical stores
 *   config · providers                       settings schemas and loading; models and MCP clients
 *   core                                     types, errors, shared contracts, ids, clock, tokens
 *
 * A module may import its own layer and any layer below it. Peers on one row never import
 * each other, and no cycle is allowed anywhere.
 */

/** Layer name → rank; a higher rank sits higher. Peers share a rank. */
const RANKS = {
  core: 0,
  config: 1,
  providers: 1,
  store: 2,
  retrieval: 3,
  extraction: 4,
  async: 4,
  surfaces: 5,
  agent: 6,
  cli: 7,
  server: 7,
  gateway: 7,
  ai: 7,
  testing: 7,
};

const layers = Object.keys(RANKS);

/**
 * The one crossing between entry points: the CLI (the composition root of the `spillway`
 * program) launches the server's start module (`spillway serve`) and the gateway's command
 * module (`spillway mcp`), both loaded on demand, and nothing else of them.
 */
const LAUNCHED = { cli: "^src/(server/serve|gateway/command)\\.ts$" };

/** For each layer, the rule forbidding imports of layers above it or of its peers. */
const layerRules = layers.map((layer) => {
  const forbidden = layers.filter((other) => other !== layer && RANKS[other] >= RANKS[layer]);
  return {
    name: `layer-${layer}`,
    comment: `${layer} may import only layers below it (${
      layers.filter((other) => RANKS[other] < RANKS[layer]).join(", ") || "none"
    }); see docs/architecture.md`,
    severity: "error",
    from: { path: `^src/${layer}/` },
    to: {
      path: `^src/(${forbidden.join("|")})/`,
      ...(LAUNCHED[layer] ? { pathNot: LAUNCHED[layer] } : {}),
    },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      comment: "a cycle makes two modules one: split the shared part into a lower file",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "root-index-only-from-outside",
      comment: "inside src, import the module itself, not the public index",
      severity: "error",
      from: { path: "^src/(?!index\\.ts$)" },
      to: { path: "^src/index\\.ts$" },
    },
    {
      name: "no-unresolvable",
      comment: "an import that does not resolve",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.ts$|\\.test-d\\.ts$|/fixtures/" },
    tsPreCompilationDeps: true,
    parser: "swc",
    tsConfig: { fileName: "tsconfig.check.json" },
    enhancedResolveOptions: {
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
