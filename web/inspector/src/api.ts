/** The inspector's calls to the spillway HTTP API (a bearer token when the server needs one). */

export interface OutputRecord {
  id: string;
  sessionId: string;
  toolName: string;
  toolArgs: string;
  toolCallId: string | null;
  status: "running" | "ready" | "failed";
  error: string | null;
  byteSize: number | null;
  charCount: number | null;
  lineCount: number | null;
  tokenEstimate: number | null;
  kind: string | null;
  mediaType: string | null;
  sha256: string | null;
}

export interface UsageByModel {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

export interface Usage {
  total: {
    modelCalls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number | null;
    toolCalls: number;
  };
  byModel: Record<string, UsageByModel>;
}

export interface Session {
  id: string;
  parentSessionId: string | null;
  agentName: string;
  prompt: string;
  status: "running" | "completed" | "failed" | "aborted";
  finalReport: string | null;
  error: string | null;
  turns: number;
  usage: Usage | null;
  createdAt: number;
  updatedAt: number;
  live: boolean;
}

export type ResultRef =
  | { kind: "output"; outputId: string; isError: boolean; shown: string; attachments?: string[] }
  | {
      kind: "retrieval";
      text: string;
      outputId?: string;
      isError?: boolean;
      continuation?: { shown: number; total: number };
    }
  | { kind: "async"; outputId: string; trigger: string }
  | { kind: "error"; code: string; message: string }
  | { kind: "note"; text: string }
  | { kind: "batch"; items: { toolName: string; argsText: string }[] };

export interface ResultJson {
  ref: ResultRef;
  shownText: string;
  output: OutputRecord | null;
  attachments: OutputRecord[];
}

export type Part =
  | { type: "text"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; argsText: string }
  | { type: "tool-result"; toolCallId: string; toolName: string; result: ResultJson };

export interface Message {
  seq: number;
  turn: number;
  role: "user" | "assistant" | "tool";
  parts: Part[];
}

export interface ContextStatus {
  turn: number;
  model: string;
  usedTokens: number;
  windowTokens: number;
  fraction: number;
  thresholds: { warn: number; compact: number; hard: number };
  level: "ok" | "warn" | "compact" | "hard";
  label: string;
}

export interface Background {
  toolCallId: string;
  toolName: string;
  outputId: string | null;
  status: string;
  byteSize: number | null;
}

export interface CallJson {
  toolCallId: string;
  childSessionId: string | null;
}

export interface History {
  session: Session;
  calls: CallJson[];
  context: ContextStatus[];
  messages: Message[];
  background: Background[];
  children: Session[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = "spillway.token";

export function getToken(): string {
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export function setToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function authHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, { headers: authHeaders(), ...(signal ? { signal } : {}) });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, error.code ?? "HTTP", error.message ?? response.statusText);
  }
  return body as T;
}

export const api = {
  sessions: () => getJson<{ sessions: Session[] }>("/v1/sessions?limit=200"),
  history: (id: string) => getJson<History>(`/v1/sessions/${encodeURIComponent(id)}`),
  output: (id: string) => getJson<OutputRecord>(`/v1/outputs/${id}`),
  content: <T>(id: string, query: Record<string, string | number | boolean>) =>
    getJson<T>(
      `/v1/outputs/${id}/content?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
    ),
};

export const formatBytes = (n: number | null): string => {
  if (n === null) return "?";
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
};

export const formatCount = (n: number | null | undefined): string =>
  (n ?? 0).toLocaleString("en-US");
