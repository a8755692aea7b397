/**
 * The servers behind one gateway session: connected through the MCP hub with the client's own
 * capabilities (so a server can ask the client for sampling, elicitation or roots through the
 * gateway), their tools under the names the client sees, and the capabilities the gateway
 * advertises on their behalf.
 */
import {
  McpHub,
  type McpHubOptions,
  type McpServerHandshake,
  type McpServerSpec,
  type McpToolInfo,
} from "../providers/mcp/index.js";

/** Client capabilities the gateway can relay to servers (it answers these requests itself). */
const RELAYED_CAPABILITIES = ["sampling", "elicitation", "roots"] as const;

/** A tool of a server as the client sees it. */
export interface UpstreamTool {
  /** The name the client calls. */
  readonly name: string;
  readonly server: string;
  /** The hub's name for it (`server__tool`). */
  readonly hubName: string;
  /** The tool's name on its server. */
  readonly toolName: string;
  /** The definition the client is given. */
  readonly definition: Record<string, unknown>;
}

/**
 * The tool as listed to the client: as the server defined it, under the client-facing name,
 * without `outputSchema` (a result too large to pass on is replaced by a handle message, which
 * cannot match the schema; clients that check results against it would reject it). Small
 * results keep their `structuredContent`.
 */
function clientDefinition(info: McpToolInfo, name: string): Record<string, unknown> {
  const { outputSchema: _dropped, ...rest } = info.definition;
  return { ...rest, name };
}

/** Connected servers, their tools and handshakes. */
export class Upstream {
  readonly hub: McpHub;
  readonly namespaced: boolean;
  readonly #tools: Map<string, UpstreamTool>;

  private constructor(hub: McpHub, namespaced: boolean) {
    this.hub = hub;
    this.namespaced = namespaced;
    this.#tools = new Map();
    for (const info of hub.tools()) {
      const name = namespaced ? info.name : info.toolName;
      this.#tools.set(name, {
        name,
        server: info.server,
        hubName: info.name,
        toolName: info.toolName,
        definition: clientDefinition(info, name),
      });
    }
  }

  /**
   * Connects to every server in parallel. Servers that fail to start are in
   * `hub.failures()`; the others serve.
   */
  static async connect(
    servers: Readonly<Record<string, McpServerSpec>>,
    options: { namespaced: boolean; clientCapabilities: Record<string, unknown> } & Omit<
      McpHubOptions,
      "clientCapabilities"
    >,
  ): Promise<Upstream> {
    const { namespaced, clientCapabilities, ...hubOptions } = options;
    const relayed = Object.fromEntries(
      RELAYED_CAPABILITIES.flatMap((key) =>
        clientCapabilities[key] === undefined ? [] : [[key, clientCapabilities[key]]],
      ),
    );
    const hub = await McpHub.connect(
      { ...servers },
      { ...hubOptions, clientCapabilities: relayed },
    );
    return new Upstream(hub, namespaced);
  }

  /** Every tool, in server order. */
  tools(): UpstreamTool[] {
    return [...this.#tools.values()];
  }

  tool(name: string): UpstreamTool | undefined {
    return this.#tools.get(name);
  }

  /** The handshakes of the servers that are connected, by server name. */
  handshakes(): Map<string, McpServerHandshake> {
    const out = new Map<string, McpServerHandshake>();
    for (const status of this.hub.servers()) {
      if (status.handshake) out.set(status.server, status.handshake);
    }
    return out;
  }

  /** Servers whose handshake declared `capability` (e.g. "prompts", "resources", "logging"). */
  serversWith(capability: string): string[] {
    return [...this.handshakes()]
      .filter(([, handshake]) => handshake.capabilities[capability] !== undefined)
      .map(([server]) => server);
  }

  /** The client-facing name of a server's prompt (or other named item). */
  publicName(server: string, name: string): string {
    return this.namespaced ? `${server}__${name}` : name;
  }

  /** The server and its own name for a client-facing prompt name, if any server has it. */
  route(
    publicName: string,
    among: readonly string[],
  ): { server: string; name: string } | undefined {
    if (!this.namespaced) {
      const server = among[0];
      return server === undefined ? undefined : { server, name: publicName };
    }
    const server = among
      .filter((candidate) => publicName.startsWith(`${candidate}__`))
      .sort((a, b) => b.length - a.length)[0];
    return server === undefined ? undefined : { server, name: publicName.slice(server.length + 2) };
  }

  close(): Promise<void> {
    return this.hub.close();
  }
}
