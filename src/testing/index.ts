/**
 * spillway/testing: test infrastructure for spillway and for users' tests of their agents.
 *
 * - a scripted OpenAI-compatible model server over real HTTP (drive the real AI SDK providers
 *   with a scenario of replies or a deterministic policy; every response says it is scripted);
 * - helpers to write policies (read tool results and handles, build replies);
 * - a real MCP stdio test server (outputs of any size and kind with a planted needle, binary
 *   content, slow/cancellable calls, tool errors, crashes) and the command to spawn it;
 * - the deterministic output generator behind it.
 */

export { type ChatUsage, countUsage, SCRIPTED_FINGERPRINT } from "./chat-response.js";
export {
  type ChatAssistantMessage,
  type ChatContent,
  type ChatContentPart,
  type ChatMessage,
  type ChatRequest,
  type ChatSystemMessage,
  type ChatTool,
  type ChatToolCall,
  type ChatToolMessage,
  type ChatUserMessage,
  parseChatRequest,
} from "./chat-types.js";
export {
  type ExtractionCall,
  extractionAnswer,
  extractionCall,
  extractionReport,
  noRelevantData,
} from "./extraction-helpers.js";
export {
  GENERATED_KINDS,
  type GeneratedKind,
  type GeneratedOutput,
  type GenerateOutputOptions,
  generateBinary,
  generateOutputText,
} from "./generate-output.js";
export { type SpawnCommand, testMcpServerCommand } from "./mcp-test-server-command.js";
export {
  createTestMcpServer,
  MAX_GENERATED_BYTES,
  TEST_MCP_SERVER_INFO,
  type TestMcpServerOptions,
} from "./mcp-test-tools.js";
export {
  DEFAULT_SCRIPTED_MODEL_ID,
  type ScriptedModelServer,
  type ScriptedModelServerOptions,
  type ScriptedServerFailure,
  startScriptedModelServer,
} from "./model-server.js";
export {
  finalText,
  findOutputIds,
  lastMessage,
  type ToolResultMessage,
  textOf,
  toolCall,
  toolMessages,
  toolNames,
} from "./policy-helpers.js";
export type {
  Responder,
  ResponderContext,
  ScriptedReply,
  ScriptedToolCall,
} from "./scripted-reply.js";
export { type ReadSseOptions, readSse, type SseEvent, SseParser } from "./sse-client.js";
