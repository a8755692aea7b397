/** Milliseconds since the epoch; injectable so tests control time. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
