/**
 * Parts of a default handle message, for tests that check what its task search showed.
 */

/**
 * The text of the task search's lines: after its heading ("… found these lines …"), before the
 * example calls ("Read it with:"); empty when the message has no task search.
 *
 * @example
 * taskSearchSection(message).includes('"code": "JP-47"');
 */
export function taskSearchSection(message: string): string {
  return message.split("\nRead it with:")[0]!.split("found these lines")[1] ?? "";
}
