/**
 * The config file names, in the order they are looked for (a module of its own, so a command
 * can look for the file without loading the config schema).
 */
export const CONFIG_FILE_NAMES = [
  "spillway.config.json",
  "spillway.config.yaml",
  "spillway.config.yml",
] as const;
