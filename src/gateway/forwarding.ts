/**
 * Prompts, completions and log levels of the servers behind the gateway: listed together
 * (names as the client sees them: `server__name` when namespaced) and each request forwarded
 * to the server it belongs to.
 */
import { ErrorCode, type McpError } from "@modelcontextprotocol/sdk/types.js";
import { isSpillwayError } from "../core/errors.js";
import { asMcpError, GatewayError, passOn } from "./gateway-errors.js";
import { type GatewayResources, OUTPUT_TEMPLATE } from "./resources.js";
import type { Upstream } from "./upstream.js";

async function forward(
  upstream: Upstream,
  server: string,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  try {
    return await upstream.hub.request(server, { method, params }, signal ? { signal } : {});
  } catch (error) {
    if (isSpillwayError(error)) throw asMcpError(error);
    throw passOn(error);
  }
}

/** prompts/list: every server's prompts (all pages), under client-facing names. */
export async function listPrompts(upstream: Upstream): Promise<Record<string, unknown>> {
  const prompts: Record<string, unknown>[] = [];
  for (const server of upstream.serversWith("prompts")) {
    let cursor: string | undefined;
    do {
      const page = await forward(upstream, server, "prompts/list", cursor ? { cursor } : {});
      for (const prompt of (page.prompts as Record<string, unknown>[] | undefined) ?? []) {
        if (typeof prompt.name !== "string") continue;
        prompts.push({ ...prompt, name: upstream.publicName(server, prompt.name) });
      }
      cursor = typeof page.nextCursor === "string" ? page.nextCursor : undefined;
    } while (cursor !== undefined);
  }
  return { prompts };
}

function unknownPrompt(name: string, upstream: Upstream): McpError {
  const servers = upstream.serversWith("prompts");
  return new GatewayError(
    ErrorCode.InvalidParams,
    `Unknown prompt "${name}"${servers.length === 0 ? ": no server behind this gateway has prompts" : upstream.namespaced ? `: prompt names are <server>__<prompt>, with server one of ${servers.join(", ")}` : ""}.`,
  );
}

/** prompts/get: forwarded to the server whose prompt it is. */
export async function getPrompt(
  upstream: Upstream,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const name = String(params.name);
  const route = upstream.route(name, upstream.serversWith("prompts"));
  if (!route) throw unknownPrompt(name, upstream);
  return forward(upstream, route.server, "prompts/get", { ...params, name: route.name }, signal);
}

/**
 * completion/complete: a prompt's argument goes to that prompt's server; a resource
 * template's to the server that listed it; the output template's `{id}` is completed with
 * this session's output ids.
 */
export async function complete(
  upstream: Upstream,
  resources: GatewayResources,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const ref = params.ref as { type?: string; name?: string; uri?: string } | undefined;
  const argument = params.argument as { name?: string; value?: string } | undefined;
  if (ref?.type === "ref/resource" && ref.uri === OUTPUT_TEMPLATE) {
    const values = await resources.completeId(argument?.value ?? "");
    return { completion: { values, total: values.length, hasMore: false } };
  }
  const servers = upstream.serversWith("completions");
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
    const route = upstream.route(ref.name, servers);
    if (!route) throw unknownPrompt(ref.name, upstream);
    return forward(
      upstream,
      route.server,
      "completion/complete",
      { ...params, ref: { ...ref, name: route.name } },
      signal,
    );
  }
  const owner = typeof ref?.uri === "string" ? resources.ownerOf(ref.uri) : undefined;
  const server = owner ?? servers[0];
  if (server === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  return forward(upstream, server, "completion/complete", params, signal);
}

/** logging/setLevel: sent to every server that logs. */
export async function setLogLevel(
  upstream: Upstream,
  params: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  await Promise.all(
    upstream
      .serversWith("logging")
      .map((server) => forward(upstream, server, "logging/setLevel", params)),
  );
  return {};
}
