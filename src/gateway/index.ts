/**
 * `spillway mcp`: a lossless MCP gateway any MCP client can put in front of its servers. Every
 * tool result is stored whole; small ones pass through unchanged, large ones become a handle
 * message, `get_tool_output` reads them, outputs are MCP resources, and handle references
 * pass stored outputs into other tools byte for byte.
 */
export { GATEWAY_AGENT_NAME, type GatewayHistory } from "./gateway-history.js";
export { GatewaySession, type GatewaySessionOptions } from "./gateway-session.js";
export {
  GATEWAY_DEFAULTS,
  type GatewayCliOptions,
  type GatewayLimits,
  type GatewaySampling,
  type GatewaySettings,
  resolveGatewaySettings,
} from "./gateway-settings.js";
export type { GatewayStores } from "./gateway-stores.js";
export { type HttpGateway, type HttpGatewayOptions, startHttpGateway } from "./http-gateway.js";
export { READ_TOOL_NAME } from "./read-tool.js";
export { OUTPUT_META_KEY } from "./result-view.js";
export { type StdioGatewayOptions, serveStdio } from "./stdio-gateway.js";
