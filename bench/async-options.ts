/** The command line of `npm run bench:async`. */

export interface Options {
  readonly json: boolean;
  readonly k: readonly number[];
  readonly durationSecs: number;
  readonly asyncTimeoutSecs: number;
  readonly repeats: number;
  readonly maxRunning: number | undefined;
  /** D for the K = 4 pass at the default asyncTimeoutSecs (0: skip it). */
  readonly defaultTimeoutDurationSecs: number;
}

const USAGE =
  "use --json, --k 1,4,8, --duration-secs S, --async-timeout S, --repeats N, --max-running N, --default-timeout-duration S";

export function parseOptions(argv: readonly string[]): Options {
  let json = false;
  let k: number[] = [1, 4, 8];
  let durationSecs = 2;
  let asyncTimeoutSecs = 0.1;
  let repeats = 1;
  let maxRunning: number | undefined;
  let defaultTimeoutDurationSecs = 8;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") {
      json = true;
      continue;
    }
    const [flag, inline] = arg.split("=", 2) as [string, string | undefined];
    const take = () => {
      const text = inline ?? argv[++i];
      if (text === undefined) throw new Error(`${flag} wants a value (${USAGE})`);
      return text;
    };
    const number = (text: string, ok: (v: number) => boolean, wants: string) => {
      const value = Number(text);
      if (text.trim() === "" || !ok(value)) throw new Error(`${flag} wants ${wants}; got ${text}`);
      return value;
    };
    const whole =
      (min: number, max = Number.MAX_SAFE_INTEGER) =>
      (v: number) =>
        Number.isInteger(v) && v >= min && v <= max;
    switch (flag) {
      case "--k":
        k = take()
          .split(",")
          .map((part) => number(part, whole(1, 32), "whole numbers 1..32, comma-separated"));
        break;
      case "--duration-secs":
        durationSecs = number(take(), (v) => v > 0 && v <= 60, "seconds in (0, 60]");
        break;
      case "--async-timeout":
        asyncTimeoutSecs = number(take(), (v) => v >= 0 && v <= 60, "seconds in [0, 60]");
        break;
      case "--repeats":
        repeats = number(take(), whole(1), "a whole number >= 1");
        break;
      case "--default-timeout-duration":
        defaultTimeoutDurationSecs = number(take(), (v) => v >= 0 && v <= 60, "seconds in [0, 60]");
        break;
      case "--max-running":
        maxRunning = number(take(), whole(1, 64), "a whole number 1..64");
        break;
      default:
        throw new Error(`unknown argument ${arg} (${USAGE})`);
    }
  }
  return {
    json,
    k: [...new Set(k)],
    durationSecs,
    asyncTimeoutSecs,
    repeats,
    maxRunning,
    defaultTimeoutDurationSecs,
  };
}
