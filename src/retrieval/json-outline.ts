/**
 * The shape of a JSON document in a few hundred tokens: keys, types, array lengths, value
 * ranges. Large arrays are sampled (head, tail and evenly spaced elements), and the outline
 * says how many elements it looked at.
 */

interface Shape {
  seen: number;
  types: Map<string, number>;
  objects: number;
  keys: Map<string, Shape>;
  arrays: number;
  minLength: number;
  maxLength: number;
  sampled: number;
  element: Shape | undefined;
  minNumber: number;
  maxNumber: number;
  example: string | undefined;
}

const MAX_DEPTH = 8;
const MAX_KEYS_SHOWN = 40;
const MAX_LINES = 200;
const ARRAY_SAMPLE = 100;
const EXAMPLE_CHARS = 40;

function emptyShape(): Shape {
  return {
    seen: 0,
    types: new Map(),
    objects: 0,
    keys: new Map(),
    arrays: 0,
    minLength: Number.POSITIVE_INFINITY,
    maxLength: 0,
    sampled: 0,
    element: undefined,
    minNumber: Number.POSITIVE_INFINITY,
    maxNumber: Number.NEGATIVE_INFINITY,
    example: undefined,
  };
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Indexes of the elements to sample from an array of `length`. */
function sampleIndexes(length: number): number[] {
  if (length <= ARRAY_SAMPLE) return Array.from({ length }, (_, i) => i);
  const picked = new Set<number>();
  for (let i = 0; i < 40; i++) picked.add(i);
  for (let i = length - 10; i < length; i++) picked.add(i);
  for (let i = 0; i < 50; i++) picked.add(Math.floor(((i + 0.5) * length) / 50));
  return [...picked].sort((a, b) => a - b);
}

function merge(shape: Shape, value: unknown, depth: number): void {
  const type = typeOf(value);
  shape.seen++;
  shape.types.set(type, (shape.types.get(type) ?? 0) + 1);
  if (depth >= MAX_DEPTH) return;
  if (type === "number") {
    shape.minNumber = Math.min(shape.minNumber, value as number);
    shape.maxNumber = Math.max(shape.maxNumber, value as number);
  } else if (type === "string") {
    shape.example ??= value as string;
  } else if (type === "array") {
    const array = value as unknown[];
    shape.arrays++;
    shape.minLength = Math.min(shape.minLength, array.length);
    shape.maxLength = Math.max(shape.maxLength, array.length);
    shape.element ??= emptyShape();
    for (const i of sampleIndexes(array.length)) {
      shape.sampled++;
      merge(shape.element, array[i], depth + 1);
    }
  } else if (type === "object") {
    shape.objects++;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      let keyShape = shape.keys.get(key);
      if (!keyShape) {
        keyShape = emptyShape();
        shape.keys.set(key, keyShape);
      }
      merge(keyShape, child, depth + 1);
    }
  }
}

function quote(text: string): string {
  const short = text.length > EXAMPLE_CHARS ? `${text.slice(0, EXAMPLE_CHARS)}…` : text;
  return JSON.stringify(short);
}

function describe(shape: Shape, firstValues: boolean): string {
  const types = [...shape.types.keys()];
  const parts: string[] = [];
  for (const type of types) {
    if (type === "object") {
      parts.push(`object (${shape.keys.size} key${shape.keys.size === 1 ? "" : "s"})`);
    } else if (type === "array") {
      const length =
        shape.minLength === shape.maxLength
          ? `${shape.maxLength}`
          : `${shape.minLength}..${shape.maxLength}`;
      const of =
        shape.element && shape.element.seen > 0
          ? ` of ${[...shape.element.types.keys()].join("|")}`
          : "";
      const sampled =
        shape.element && shape.sampled < sumLengths(shape) ? `, ${shape.sampled} sampled` : "";
      parts.push(`array[${length}]${of}${sampled}`);
    } else if (type === "number") {
      const range =
        shape.minNumber === shape.maxNumber
          ? `${shape.minNumber}`
          : `${shape.minNumber}..${shape.maxNumber}`;
      parts.push(Number.isFinite(shape.minNumber) ? `number ${range}` : "number");
    } else if (type === "string") {
      // "first value", not "e.g.": it says whose value it is, so a model does not take one
      // record's value for the value of the record its task names.
      const strings = shape.types.get("string") ?? 0;
      parts.push(
        shape.example === undefined
          ? "string"
          : strings === 1
            ? `string ${quote(shape.example)}`
            : firstValues
              ? `string, first value ${quote(shape.example)}`
              : "string",
      );
    } else {
      parts.push(type);
    }
  }
  return parts.join(" | ");
}

/** Total elements across the arrays merged into a shape (an estimate: min/max known). */
function sumLengths(shape: Shape): number {
  return shape.arrays === 1 ? shape.maxLength : shape.arrays * shape.minLength;
}

function keyLabel(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function render(
  shape: Shape,
  label: string,
  indent: string,
  lines: string[],
  parentObjects: number,
  firstValues: boolean,
): void {
  if (lines.length >= MAX_LINES) return;
  const presence =
    parentObjects > 0 && shape.seen < parentObjects
      ? ` (in ${shape.seen} of ${parentObjects})`
      : "";
  lines.push(`${indent}${label}: ${describe(shape, firstValues)}${presence}`);
  const childIndent = `${indent}  `;
  let shown = 0;
  for (const [key, child] of shape.keys) {
    if (shown === MAX_KEYS_SHOWN) {
      lines.push(`${childIndent}… ${shape.keys.size - shown} more keys`);
      break;
    }
    render(child, keyLabel(key), childIndent, lines, shape.objects, firstValues);
    shown++;
  }
  const element = shape.element;
  if (element && (element.keys.size > 0 || element.element)) {
    render(element, "[*]", childIndent, lines, 0, firstValues);
  }
}

export interface OutlineOptions {
  /**
   * Give a string key's first value (default true). Without it, a key of many string values
   * says only `string`: the first value is one record's, a position in the document rather
   * than a fact of the whole, and a model shown it beside lines found for its task can take
   * it for the answer (docs/architecture.md, SW-72). A key's only string value is kept.
   */
  readonly firstValues?: boolean;
}

/**
 * Renders the outline of a parsed JSON value.
 *
 * @example
 * outlineJson({ items: [{ id: 1 }, { id: 2 }] });
 * // $: object (1 key)
 * //   .items: array[2] of object
 * //     [*]: object (1 key)
 * //       .id: number 1..2
 * outlineJson([{ sku: "A-1" }, { sku: "B-2" }], { firstValues: false });
 * // $: array[2] of object
 * //   [*]: object (1 key)
 * //     .sku: string        (with first values: string, first value "A-1")
 */
export function outlineJson(root: unknown, options: OutlineOptions = {}): string {
  const shape = emptyShape();
  merge(shape, root, 0);
  const lines: string[] = [];
  render(shape, "$", "", lines, 0, options.firstValues ?? true);
  if (lines.length >= MAX_LINES) {
    lines.push(
      `… outline stops at ${MAX_LINES} lines; query a deeper path (e.g. $.items[0]) for the rest`,
    );
  }
  return lines.join("\n");
}
