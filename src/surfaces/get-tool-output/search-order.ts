/**
 * How a model's searches rank their lines (SW-40 in docs/architecture.md): by the query's words
 * each line holds, the rarest weighing most, and lines holding the same words in the order of the
 * output. BM25 also counts a word repeated and a line's shortness, which says nothing about which
 * of a hundred `status=lost` rows a task wants, while "the first" or "the last" asks for a
 * position; the handle message's task search orders its lines the same way (SW-34), so a model's
 * own search does not contradict it. Equal lines come latest first when the task asks for the
 * last of something.
 */
import type { SearchRequest } from "../../retrieval/search.js";
import type { SurfaceContext } from "../surface.js";
import { positionRanking } from "../task-order.js";

/**
 * The ranking fields of a model's search request: coverage, equal lines in the output's order
 * (latest first when the session's task asks for the last); BM25 with `positionOrder: false`.
 *
 * @example
 * modelSearchOrder({ ...context, taskText: "Which was the last parcel lost?" });
 * // { ranking: "coverage", latestFirst: true }
 */
export function modelSearchOrder(
  context: Pick<SurfaceContext, "taskText" | "positionOrder">,
): Pick<SearchRequest, "ranking" | "latestFirst"> {
  if (context.positionOrder === false) return { ranking: "bm25" };
  return positionRanking(context.taskText ?? "");
}
