/**
 * The public API, pinned: every name each entry point exports (values and types). A change
 * here is a change to the API users build on; make it on purpose, and update the docs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

/** Every name an index file exports (values and types), sorted, from its source. */
function exportedNames(indexPath: string): string[] {
  const source = readFileSync(join(root, indexPath), "utf8");
  const names: string[] = [];
  for (const block of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g))
    for (const part of block[1]!.split(",")) {
      const name = part
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.push(name);
    }
  for (const declared of source.matchAll(
    /export\s+(?:async\s+)?(?:function|const|class|interface|type)\s+(\w+)/g,
  ))
    names.push(declared[1]!);
  return [...new Set(names)].sort();
}

const ENTRY_POINTS = {
  "spillway (src/index.ts)": {
    file: "src/index.ts",
    names: [
      "AgentEvent",
      "AgentEventListener",
      "AgentRunResult",
      "BinaryProvenance",
      "ERROR_CODES",
      "ErrorCode",
      "ErrorFault",
      "GrepLine",
      "GrepMatch",
      "GrepResult",
      "HistoryStore",
      "JsonMatch",
      "JsonResult",
      "OutputKind",
      "OutputRecord",
      "OutputStore",
      "PageResult",
      "Provenance",
      "RETRIEVAL_MODES",
      "RawResult",
      "ReadScope",
      "RetrievalMode",
      "RetrievalRequest",
      "RetrievalResult",
      "RunAgentOptions",
      "SearchMatch",
      "SearchResult",
      "SessionRecord",
      "SliceResult",
      "SpillwayError",
      "SpillwayStores",
      "UsageReport",
      "UsageTotals",
      "isSpillwayError",
      "openSqliteStores",
      "readOutput",
      "runAgent",
    ],
  },
  "spillway/agent": {
    file: "src/agent/index.ts",
    names: [
      "AgentDefinition",
      "AgentEvent",
      "AgentEventListener",
      "AgentRunResult",
      "CliSettings",
      "CompactionInfo",
      "CompactionSettings",
      "CompactionTotals",
      "ContextLevel",
      "ContextLimits",
      "ContextUsage",
      "Extractor",
      "HistoryCounters",
      "InvariantName",
      "McpServerSpec",
      "ModelReply",
      "ModelRequest",
      "ModelTarget",
      "ModelToolCall",
      "ResolvedSettings",
      "RunAgentOptions",
      "SURFACE_NAMES",
      "SessionHealth",
      "SessionSettings",
      "Surface",
      "SurfaceName",
      "ToolDefinition",
      "UsageReport",
      "UsageTotals",
      "asProjection",
      "createSurface",
      "findConfigFile",
      "loadAgentFile",
      "loadConfig",
      "loadConfigFile",
      "parseModelRef",
      "resolveSettings",
      "runAgent",
      "sessionCounters",
      "sessionHealth",
      "storeCounters",
    ],
  },
  "spillway/store": {
    file: "src/store/index.ts",
    names: [
      "ChannelSubscriber",
      "CoveredCall",
      "DEFAULT_MAX_OUTPUT_BYTES",
      "ExtractionCache",
      "GcOptions",
      "GcReport",
      "HistoryMessage",
      "HistoryPart",
      "HistoryStore",
      "ListOutputsFilter",
      "NewSummary",
      "OpenedOutput",
      "OutputContent",
      "OutputOrigin",
      "OutputRecord",
      "OutputStatus",
      "OutputStore",
      "PostgresExtractionCache",
      "PostgresHistoryStore",
      "PostgresOutputStore",
      "PostgresOutputStoreOptions",
      "PostgresStoresOptions",
      "PutOutputOptions",
      "ReadScope",
      "SessionOwnership",
      "SessionRecord",
      "SessionStatus",
      "ShownAs",
      "SpillwayStores",
      "SqliteOutputStoreOptions",
      "StoreChannel",
      "StoreStats",
      "SummaryRecord",
      "ToolCallRecord",
      "ToolResultRef",
      "VerifyResult",
      "collectGarbage",
      "openPostgresOutputStore",
      "openPostgresStores",
      "openSqliteOutputStore",
      "openSqliteStores",
      "removeLiveTempsSync",
      "resolveHome",
      "storeStats",
    ],
  },
  "spillway/retrieval": {
    file: "src/retrieval/index.ts",
    names: [
      "AnchorInfo",
      "BinaryProvenance",
      "DEFAULT_TOKENIZER",
      "GrepLine",
      "GrepMatch",
      "GrepRequest",
      "GrepResult",
      "JsonMatch",
      "JsonRequest",
      "JsonResult",
      "OUTPUT_KINDS",
      "OutputKind",
      "PageRequest",
      "PageResult",
      "Provenance",
      "RETRIEVAL_MODES",
      "RawRequest",
      "RawResult",
      "RetrievalJob",
      "RetrievalMode",
      "RetrievalRequest",
      "RetrievalResult",
      "SearchMatch",
      "SearchRanking",
      "SearchRequest",
      "SearchResult",
      "SearchStop",
      "SearchSummary",
      "SearchTerm",
      "SessionSearchResult",
      "SkippedOutput",
      "SliceRequest",
      "SliceResult",
      "TokenEstimate",
      "TokenizerName",
      "countTokens",
      "detectKind",
      "estimateTokens",
      "grepOutput",
      "outlineJson",
      "queryJson",
      "readOutput",
      "readPage",
      "readRaw",
      "readSlice",
      "searchOutput",
      "searchSession",
      // Handle references (spillway://outputs/<id>), passed into tools by exact content.
      "HANDLE_REFERENCE_PREFIX",
      "HandleRange",
      "HandleReference",
      "ResolveReferenceOptions",
      "ResolvedReference",
      "SubstitutedArguments",
      "Substitution",
      "handleReferenceUri",
      "parseHandleReference",
      "resolveHandleReference",
      "substituteHandleReferences",
      // Every match inside its record (a JSON object, a YAML item, a CSV row, a log entry).
      "MatchRecord",
      "OmittedPart",
      "RecordField",
      "RecordKind",
      "RecordLimits",
      "outerRecord",
      "recordAround",
    ],
  },
  "spillway/ai": {
    file: "src/ai/index.ts",
    names: [
      "CallInfo",
      "ExtractionUsage",
      "GetToolOutputArgs",
      "GetToolOutputResult",
      "HandleMessageFormatter",
      "HandleMessageInfo",
      "ModelView",
      "SpillwayAsyncOptions",
      "SpillwayBackgroundOutput",
      "SpillwayExtractionOptions",
      "SpillwayOptions",
      "SpillwayPrepareStepOptions",
      "SpillwayRetrievalTools",
      "SpillwaySession",
      "SpillwayTool",
      "SpillwayToolSet",
      "TokenBudget",
      "TokenBudgetInfo",
      "WAIT_FOR_TOOL_OUTPUT",
      "closeSpillwayStores",
      "isBackgroundOutput",
      "localModel",
      "readStoredOutput",
      "spillwayPrepareStep",
      "spillwaySessionOf",
      "spillwayTools",
      "waitForOutputs",
    ],
  },
  "spillway/langchain": {
    file: "src/ai/langchain.ts",
    names: ["SpillwayLangChainOptions", "SpillwayLangChainTools", "spillwayLangChainTools"],
  },
} as const;

describe("the public API", () => {
  for (const [entry, { file, names }] of Object.entries(ENTRY_POINTS))
    it(`${entry} exports exactly the pinned names`, () => {
      expect(exportedNames(file)).toEqual([...names].sort());
    });

  it("the root's runtime values are the pinned values (nothing else leaks at run time)", async () => {
    const api = await import("../../src/index.js");
    expect(Object.keys(api).sort()).toEqual(
      [
        "ERROR_CODES",
        "RETRIEVAL_MODES",
        "SpillwayError",
        "isSpillwayError",
        "openSqliteStores",
        "readOutput",
        "runAgent",
      ].sort(),
    );
  });

  it("package.json maps every subpath to a built index", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(pkg.exports).sort()).toEqual(
      [
        ".",
        "./agent",
        "./package.json",
        "./retrieval",
        "./store",
        "./testing",
        ...extraSubpaths(),
      ].sort(),
    );
  });
});

/** Subpaths added by adapters (e.g. ./ai) are pinned where they are built; listed here too. */
function extraSubpaths(): string[] {
  return ["./ai", "./langchain", "./server"]; // ./server is pinned in src/server/index.test.ts
}
