/**
 * Resources through the gateway: every output of the session is `spillway://outputs/<id>`
 * (listed newest first, readable whole or by range), next to the resources of the servers
 * behind it, whose requests are forwarded to the server that owns each URI.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isSpillwayError } from "../core/errors.js";
import {
  HANDLE_REFERENCE_PREFIX,
  parseHandleReference,
  resolveHandleReference,
} from "../retrieval/handle-reference.js";
import type { OutputStore } from "../store/output-store.js";
import { asMcpError, GatewayError, passOn, RESOURCE_NOT_FOUND } from "./gateway-errors.js";
import { outputResource } from "./result-view.js";
import type { Upstream } from "./upstream.js";

/** The resource template of outputs. */
export const OUTPUT_TEMPLATE = `${HANDLE_REFERENCE_PREFIX}{id}`;

const PAGE = 100;

type Cursor = { source: number; offset?: number; cursor?: string };

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string | undefined): Cursor {
  if (text === undefined) return { source: 0 };
  try {
    const value = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor>;
    if (typeof value.source === "number" && Number.isInteger(value.source) && value.source >= 0) {
      return {
        source: value.source,
        ...(typeof value.offset === "number" ? { offset: value.offset } : {}),
        ...(typeof value.cursor === "string" ? { cursor: value.cursor } : {}),
      };
    }
  } catch {
    // Not one of ours: reported below.
  }
  throw new GatewayError(
    ErrorCode.InvalidParams,
    `Invalid cursor ${JSON.stringify(text)}: pass back a nextCursor from a previous list.`,
  );
}

/** The session's resources and the servers' resources, behind one list. */
export class GatewayResources {
  /** Which server listed each URI (reads and subscriptions go there). */
  readonly #owners = new Map<string, string>();

  constructor(
    private readonly outputs: OutputStore,
    private readonly sessionId: () => string,
    private readonly upstream: () => Upstream | undefined,
    private readonly maxBytes: number,
  ) {}

  #servers(): string[] {
    return this.upstream()?.serversWith("resources") ?? [];
  }

  /** resources/list: the session's outputs (newest first), then each server's resources. */
  async list(cursorText: string | undefined): Promise<Record<string, unknown>> {
    let cursor = decodeCursor(cursorText);
    const servers = this.#servers();
    const resources: Record<string, unknown>[] = [];
    while (cursor.source <= servers.length) {
      if (cursor.source === 0) {
        const offset = cursor.offset ?? 0;
        const page = await this.outputs.list({ sessionId: this.sessionId(), limit: PAGE, offset });
        resources.push(...page.filter((r) => r.status !== "running").map((r) => outputResource(r)));
        if (page.length === PAGE)
          return { resources, nextCursor: encodeCursor({ source: 0, offset: offset + PAGE }) };
      } else {
        const server = servers[cursor.source - 1] as string;
        const page = await this.#forward(
          server,
          "resources/list",
          cursor.cursor ? { cursor: cursor.cursor } : {},
        );
        for (const resource of (page.resources as { uri?: unknown }[] | undefined) ?? []) {
          if (typeof resource.uri === "string") this.#owners.set(resource.uri, server);
          resources.push(resource as Record<string, unknown>);
        }
        if (typeof page.nextCursor === "string") {
          return {
            resources,
            nextCursor: encodeCursor({ source: cursor.source, cursor: page.nextCursor }),
          };
        }
      }
      cursor = { source: cursor.source + 1 };
    }
    return { resources };
  }

  /** resources/templates/list: the output template, then every server's templates. */
  async templates(): Promise<Record<string, unknown>> {
    const resourceTemplates: Record<string, unknown>[] = [
      {
        uriTemplate: OUTPUT_TEMPLATE,
        name: "spillway-output",
        title: "A stored tool output",
        description:
          "A tool output stored whole by spillway. Append ?lines=A-B (1-based, inclusive) or ?chars=A-B (0-based, end exclusive) to read part of it.",
      },
    ];
    for (const server of this.#servers()) {
      let cursor: string | undefined;
      do {
        const page = await this.#forward(
          server,
          "resources/templates/list",
          cursor ? { cursor } : {},
        );
        for (const template of (page.resourceTemplates as Record<string, unknown>[] | undefined) ??
          []) {
          if (typeof template.uriTemplate === "string")
            this.#owners.set(template.uriTemplate, server);
          resourceTemplates.push(template);
        }
        cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      } while (cursor !== undefined);
    }
    return { resourceTemplates };
  }

  /** resources/read: an output (whole or a range), or a server's resource. */
  async read(uri: string): Promise<Record<string, unknown>> {
    if (uri.startsWith(HANDLE_REFERENCE_PREFIX)) return this.#readOutput(uri);
    return this.#forwardByUri(uri, "resources/read", { uri });
  }

  /** resources/subscribe and unsubscribe: outputs never change; others go to their server. */
  async subscription(
    method: "resources/subscribe" | "resources/unsubscribe",
    uri: string,
  ): Promise<Record<string, unknown>> {
    if (uri.startsWith(HANDLE_REFERENCE_PREFIX)) return {};
    return this.#forwardByUri(uri, method, { uri });
  }

  /** Output ids of this session that start with `prefix` (completion of the template's {id}). */
  async completeId(prefix: string): Promise<string[]> {
    const records = await this.outputs.list({ sessionId: this.sessionId(), limit: 1000 });
    return records
      .map((r) => r.id)
      .filter((id) => id.startsWith(prefix))
      .slice(0, 100);
  }

  /** The server that owns a URI or URI template, if known. */
  ownerOf(uri: string): string | undefined {
    return this.#owners.get(uri);
  }

  async #readOutput(uri: string): Promise<Record<string, unknown>> {
    try {
      const reference = parseHandleReference(uri);
      if (!reference) throw new GatewayError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`);
      const resolved = await resolveHandleReference(
        this.outputs,
        reference,
        { sessionId: this.sessionId() },
        {
          maxBytes: this.maxBytes,
          limitName: "--max-reference-bytes",
        },
      );
      const record = await this.outputs.get(reference.outputId, { sessionId: this.sessionId() });
      const { mimeType } = outputResource(record) as { mimeType: string };
      const { text, encoding, reference: _ref, ...provenance } = resolved;
      return {
        contents: [
          {
            uri,
            mimeType,
            ...(encoding === "base64" ? { blob: text } : { text }),
            _meta: { "io.github.spillway/provenance": provenance },
          },
        ],
      };
    } catch (error) {
      if (isSpillwayError(error)) throw asMcpError(error);
      throw error;
    }
  }

  async #forwardByUri(
    uri: string,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const servers = this.#servers();
    const owner = this.#owners.get(uri);
    const candidates = owner ? [owner] : servers;
    let last: unknown;
    for (const server of candidates) {
      try {
        return await this.#forward(server, method, params);
      } catch (error) {
        last = error;
      }
    }
    if (last instanceof McpError) throw passOn(last);
    throw new GatewayError(
      RESOURCE_NOT_FOUND,
      `Resource not found: ${uri}${servers.length === 0 ? " (no server behind this gateway has resources)" : ""}`,
    );
  }

  async #forward(
    server: string,
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const upstream = this.upstream();
    if (!upstream)
      throw new GatewayError(
        ErrorCode.InternalError,
        "The gateway is not connected to its servers yet.",
      );
    try {
      return await upstream.hub.request(server, { method, params });
    } catch (error) {
      if (!isSpillwayError(error)) throw passOn(error);
      throw asMcpError(error);
    }
  }
}
