/** Every shape the live benchmark draws files of, in the order of SHAPES. */
import { SHAPES, type Shape } from "../types.js";
import { accessLog } from "./access-log.js";
import { appLog } from "./app-log.js";
import { buildLog } from "./build-log.js";
import { crlfText } from "./crlf-text.js";
import { csvShipments } from "./csv-shipments.js";
import { html } from "./html.js";
import { jsonApi, jsonMin } from "./json-orders.js";
import { jsonlLog } from "./jsonl-log.js";
import { markdown } from "./markdown.js";
import { nonLatin } from "./non-latin.js";
import { testOutput } from "./test-output.js";
import { yamlList } from "./yaml-pods.js";

const BY_NAME = new Map<string, Shape>(
  [
    appLog,
    jsonlLog,
    accessLog,
    jsonApi,
    jsonMin,
    yamlList,
    csvShipments,
    testOutput,
    buildLog,
    html,
    markdown,
    nonLatin,
    crlfText,
  ].map((s) => [s.name, s]),
);

/** Every shape, in SHAPES order. */
export const SHAPE_LIST: readonly Shape[] = SHAPES.flatMap((name) => {
  const shape = BY_NAME.get(name);
  return shape ? [shape] : [];
});
