/** Where each policy comes from, its parameters, and how its scripted agent plays it. */
import type { PolicyName } from "./episode.js";

export interface PolicyInfo {
  readonly label: string;
  readonly source: string;
  readonly parameters: string;
  readonly agent: string;
}

export const POLICY_INFO: Record<PolicyName, PolicyInfo> = {
  raw: {
    label: "raw passthrough",
    source: "no handling: the whole tool result goes into the conversation",
    parameters:
      "fails when the request holding the result does not fit a 128K-token window (4,096 reserved for the reply)",
    agent: "answers from the output when it fits",
  },
  "codex-head-tail": {
    label: "head+tail 10 KiB / 256 lines (Codex CLI)",
    source:
      "openai/codex `codex-rs/core/src/truncate.rs` @02080945, `format_output_for_model_body` (the line-and-byte version; later versions cut by bytes or tokens per model)",
    parameters:
      "over 10 KiB or 256 lines: `Total output lines: N`, the first 128 lines clipped to 5 KiB, `[... omitted X of N lines ...]` (or `[... output truncated to fit 10240 bytes ...]` when no line is dropped), the last 128 lines clipped to the rest of 10 KiB; a single long line keeps only its head",
    agent: "answers from what it saw; no way back to the rest",
  },
  "openhands-head": {
    label: "head-only 16,000 characters (OpenHands editor)",
    source:
      "All-Hands-AI openhands-aci `editor/results.py` `maybe_truncate`, `MAX_RESPONSE_LEN_CHAR = 16000` (the file editor's view of a file; OpenHands truncates other observations by its own rule)",
    parameters:
      "the first 16,000 characters + `<response clipped><NOTE>To save on context only part of this file has been shown to you. …</NOTE>`",
    agent:
      "answers from what it saw (the notice suggests grep, which this policy does not offer on a tool result)",
  },
  "seed-50-50": {
    label: "50/50 bytes at 12,288 (the legacy byte cap)",
    source:
      "the legacy cap spillway replaces: results over `toolResponseMaxBytes` truncated in the middle (50/50 split); 12,288 is spillway's default cap",
    parameters: "first 6,144 + last 6,144 bytes around `[... N bytes truncated ...]`",
    agent: "answers from what it saw",
  },
  "claude-mcp-25k": {
    label: "25,000-token cap with an error (older Claude Code MCP)",
    source:
      'Claude Code `MAX_MCP_OUTPUT_TOKENS` default 25000; older builds answer `MCP tool "X" response (N tokens) exceeds maximum allowed tokens (25000). Please use pagination, filtering, or limit parameters to reduce the response size.`',
    parameters: "up to 25,000 tokens: the whole output; above: only the error",
    agent: "answers from the output when it came; otherwise it has nothing",
  },
  "spill-to-file": {
    label: "spill to file + 2 KB preview, Read/Grep, no shell (Claude Code's tools without Bash)",
    source:
      "Claude Code `src/utils/toolResultStorage.ts` (threshold 50,000 characters, `PREVIEW_SIZE_BYTES = 2000`, `<persisted-output>` message), its Read (`offset`/`limit`, `N\\tline`, lines cut at 2,000 characters as its description says, 25,000-token cap) and Grep (ripgrep, `-n`, `--max-columns 500`, `head_limit` 250); no shell",
    parameters:
      "over 50,000 characters the result is written to a file; the model gets its path and the first 2 KB",
    agent:
      "answers from the preview, else Grep for the id, form or phrase the question names (-n, -C 3, or -C 6 for what comes just before), then Read 50 lines around the first match",
  },
  "spill-to-file-shell": {
    label: "spill to file + 2 KB preview, with a shell (Claude Code's Bash, Goose's shell)",
    source:
      "the same `<persisted-output>` message as Claude Code's spilling; a Bash tool running real commands (GNU grep, jq, head, tail, sed) on the real file, output capped at 30,000 characters as Claude Code's Bash caps it",
    parameters:
      "over 50,000 characters the result is written to a file; the model gets its path, the first 2 KB and a shell",
    agent:
      "answers from the preview, else: jq selecting the record by the question's id when the preview is JSON; `grep -n -o` with 300 characters of context around the id; `grep -o -P` for a described form; `grep -B 8 … | tail` for what comes just before a phrase at the end; wider `grep -A` / `grep -o` reads when the first does not answer",
  },
  "paging-4000": {
    label: "continuation paging, 4,000-character pages (get_continuation)",
    source:
      'the continuation surface: `[truncated — showing 4000/N chars. Call get_continuation with tool_call_id="…" to read more]` and `get_continuation(tool_call_id, offset)`',
    parameters: "4,000 characters a page; every page stays in the conversation",
    agent:
      'jumps to the last page when the question says "at the end" (the marker gives the total), else pages forward until it sees the answer or its context window is full',
  },
  spillway: {
    label: "spillway (default surface)",
    source:
      "this repository, default settings: stored whole, then inline, a handle message (stored outputs shown by handle and read with `get_tool_output`)",
    parameters: "`get_tool_output` modes grep / slice / json (page and extract unused here)",
    agent:
      "answers from what it was shown, else takes the reads the shown text suggests: a JSONPath selecting the record by the question's id (built from the shown outline), grep for the id, form or phrase the question names (context 3, or 6 for what comes just before), then a slice around the hit; with the ready text (slice and extract only), a slice around the id or phrase, or extract for a described form",
  },
  "spillway-extract": {
    label: "spillway extract",
    source:
      'this repository: `get_tool_output(mode="extract")`, strategy auto (full-chunked map-reduce or the read-grep agent), quotes verified against the stored bytes',
    parameters: "extraction model = the scripted model (128K window); maxChunks 20",
    agent:
      "asks extract first with the question as the query, and relays its answer; when extraction declines or finds nothing, takes the same reads as spillway",
  },
};
