/**
 * Gateways for the security probes: each one started through {@link gateway} is closed after
 * the test, and {@link text} reads a tool result's first text.
 */
import { afterEach } from "vitest";
import { startTestGateway, type TestGateway } from "../helpers/gateway-fixture.js";

const started: { gateway: TestGateway; keepHome: boolean }[] = [];
afterEach(async () => {
  for (let next = started.pop(); next; next = started.pop())
    await next.gateway.close({ keepHome: next.keepHome });
});

/** {@link startTestGateway}, closed after the test; a home the caller gave is kept. */
export async function gateway(...args: Parameters<typeof startTestGateway>): Promise<TestGateway> {
  const running = await startTestGateway(...args);
  started.push({ gateway: running, keepHome: args[0]?.home !== undefined });
  return running;
}

/** The first text of a tool result. */
export function text(result: unknown): string {
  return (result as { content: { type: string; text?: string }[] }).content[0]?.text ?? "";
}
