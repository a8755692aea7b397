/**
 * What the eval commands share in reading their arguments: a refusal that names what is at
 * fault and shows the usage (exit code 2), whole-number flags, and `--help`.
 */

/** The argument helpers of one command, bound to its usage line. */
export interface CliArgs {
  /** Writes the message and the usage to stderr and exits with code 2. */
  readonly fail: (message: string) => never;
  /** The flag's value as a whole number of at least `min`, or a refusal naming the flag. */
  readonly wholeNumber: (flag: string, text: string | undefined, min: number) => number;
  /** Writes the usage to stdout and exits with code 0. */
  readonly help: () => never;
}

/**
 * The argument helpers of a command whose usage line is `usage`.
 *
 * @example
 * const { fail, wholeNumber } = cliArgs("usage: npm run eval:live:pool -- [--cells N]");
 * const cells = wholeNumber("--cells", "12", 1); // 12
 */
export function cliArgs(usage: string): CliArgs {
  const fail = (message: string): never => {
    process.stderr.write(`${message}\n${usage}\n`);
    process.exit(2);
  };
  const wholeNumber = (flag: string, text: string | undefined, min: number): number => {
    const n = Number(text);
    if (text === undefined || text.trim() === "" || !Number.isInteger(n) || n < min)
      fail(`${flag} needs a whole number, at least ${min}; got ${JSON.stringify(text ?? "")}`);
    return n;
  };
  const help = (): never => {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  };
  return { fail, wholeNumber, help };
}
