// The home directory moved down to core (the local model provider needs it too).
export { resolveHome } from "../core/home.js";
