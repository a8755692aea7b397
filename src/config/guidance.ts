/**
 * Guidance: runtime text and rules that steer the model beyond storing outputs and reading them
 * (SW-24 in docs/architecture.md). Each behaviour can be switched off by name, so an ablation on
 * fresh tasks can measure what it is worth (`npm run eval:live -- --ablate NAME`); a behaviour
 * is kept only where that measurement shows it pays.
 */
import type { z } from "zod";
import { boolean, strictObject } from "./schema-helpers.js";

/** The guidance behaviours, by the name their setting and `--ablate` use. */
export const GUIDANCE_SWITCHES = [
  "notice",
  "taskSearch",
  "taskRecord",
  "taskFocus",
  "reportGuards",
  "wholeReads",
  "thresholdLines",
  "formLines",
  "unchangedReads",
  "repeatStop",
] as const;
export type GuidanceSwitch = (typeof GUIDANCE_SWITCHES)[number];

/** What each switch turns off, for docs and help. */
export const GUIDANCE_DESCRIPTIONS: Readonly<Record<GuidanceSwitch, string>> = {
  notice:
    "the System Notice: background tools and their outputs, and the final turn's statement that the report is due",
  taskSearch:
    "the handle message's search for the task's words: its best lines and the example calls built from those words",
  taskRecord:
    "the handle message shows the task search's best line inside its record (JSON object, list item, CSV row, log entry)",
  taskFocus:
    "when the task search found lines, the handle message leaves out the output's first and last lines (a JSON outline stays)",
  reportGuards:
    "reports sent back once: giving a handle id as a value, repeating runtime text, or stating a value no tool result showed",
  wholeReads:
    "a read-only tool called with optional numeric arguments (a part of its result) is run whole when the whole holds that part",
  thresholdLines:
    "when the task compares with a measured number (over 10 s, below 2 MB, at least 90%), the handle message lists the lines holding a value past it",
  formLines:
    "when the task names a value by its form (an IPv6 address, a UUID, a 13-digit number), the handle message lists the few places holding one",
  unchangedReads:
    "a read of a stored output repeating an earlier read whose result the model was sent whole is answered with a one-line note naming that turn, not the same text again",
  repeatStop:
    "a call that already returned the same result twice is not run a third time: a note says so and the next turn is the last, allowing only the report",
};

/** Every switch on or off. */
export type Guidance = Readonly<Record<GuidanceSwitch, boolean>>;

/** The default: every behaviour on. */
export const ALL_GUIDANCE: Guidance = Object.fromEntries(
  GUIDANCE_SWITCHES.map((name) => [name, true]),
) as Record<GuidanceSwitch, boolean>;

/** `guidance` in settings: any switch, true or false. */
export const guidanceSchema = strictObject(
  Object.fromEntries(GUIDANCE_SWITCHES.map((name) => [name, boolean().optional()])) as Record<
    GuidanceSwitch,
    z.ZodOptional<ReturnType<typeof boolean>>
  >,
);

/**
 * Whether a guidance behaviour is on (settings stored before switches existed: every one is).
 *
 * @example
 * guided({ guidance: { ...ALL_GUIDANCE, notice: false } }, "notice"); // false
 */
export function guided(settings: { readonly guidance?: Guidance }, name: GuidanceSwitch): boolean {
  return settings.guidance?.[name] ?? true;
}
