/**
 * One loaded GGUF model per process and file, and a small pool of context sequences over it.
 * Agent turns share a long prefix (system prompt, tools, history), so each call goes to the
 * free sequence whose cached tokens share the longest prefix with its prompt: only the new
 * tokens are evaluated. Calls beyond the pool wait in order.
 */
import type {
  ChatHistoryItem,
  ChatModelFunctions,
  ChatWrapper,
  Llama,
  LlamaChat,
  LlamaContextSequence,
  LlamaModel,
  Token,
} from "node-llama-cpp";
import { SpillwayError } from "../../core/errors.js";
import { fixChatWrapper } from "./chat-wrapper-fixes.js";
import { importNodeLlama, type NodeLlamaModule } from "./node-llama.js";

/** How a local model is run. */
export interface LocalRuntimeOptions {
  /** Tokens per context sequence; capped at the model's training context. */
  readonly contextSize: number;
  /** Sequences kept (each a context of `contextSize`); default 2. */
  readonly sequences?: number;
  /** CPU threads; default: node-llama-cpp's choice (the machine's math cores). */
  readonly threads?: number;
}

/** One context sequence and the chat over it. */
export interface LocalSlot {
  readonly chat: LlamaChat;
  readonly sequence: LlamaContextSequence;
  busy: boolean;
}

/** A loaded model with its sequence pool. */
export interface LocalRuntime {
  readonly path: string;
  readonly module: NodeLlamaModule;
  readonly model: LlamaModel;
  readonly chatWrapper: ChatWrapper;
  readonly contextSize: number;
  readonly trainContextSize: number;
  /** Waits for a free sequence (best prefix match for `tokens`) and holds it until released. */
  acquire(tokens: readonly Token[], signal?: AbortSignal): Promise<LocalSlot>;
  release(slot: LocalSlot): void;
  /** The prompt's tokens, rendered by the model's chat template. */
  promptTokens(history: ChatHistoryItem[], functions: ChatModelFunctions | undefined): Token[];
}

let llamaPromise: Promise<Llama> | undefined;
const runtimes = new Map<string, Promise<LocalRuntime>>();

async function llamaInstance(module: NodeLlamaModule): Promise<Llama> {
  llamaPromise ??= module
    .getLlama({
      gpu: false,
      build: "never",
      logLevel: module.LlamaLogLevel.error,
      logger: (level, message) => {
        if (level === module.LlamaLogLevel.error || level === module.LlamaLogLevel.fatal)
          process.stderr.write(`[node-llama-cpp] ${message}\n`);
      },
    })
    .then((llama) => {
      // Contexts evaluating at once share the cores instead of each taking its own threads.
      llama.maxThreads = llama.cpuMathCores;
      return llama;
    })
    .catch((error: unknown) => {
      llamaPromise = undefined;
      throw error;
    });
  return llamaPromise;
}

function commonPrefix(a: readonly Token[], b: readonly Token[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * The runtime of a model file, loaded once per process (and context size). Loading failures
 * are MODEL_FILE_INVALID naming the file.
 *
 * @example
 * const runtime = await localRuntime("/models/qwen.gguf", { contextSize: 16384 });
 */
export function localRuntime(path: string, options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const key = JSON.stringify([path, options.contextSize, options.sequences, options.threads]);
  let runtime = runtimes.get(key);
  if (!runtime) {
    runtime = loadRuntime(path, options).catch((error: unknown) => {
      runtimes.delete(key);
      throw error;
    });
    runtimes.set(key, runtime);
  }
  return runtime;
}

/** Disposes every loaded model (tests; a process that exits needs not call it). */
export async function disposeLocalRuntimes(): Promise<void> {
  const loaded = await Promise.allSettled(runtimes.values());
  runtimes.clear();
  for (const result of loaded)
    if (result.status === "fulfilled") await result.value.model.dispose();
}

async function loadRuntime(path: string, options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const module = await importNodeLlama();
  const llama = await llamaInstance(module);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (error) {
    throw new SpillwayError(
      "MODEL_FILE_INVALID",
      `node-llama-cpp could not load the model file ${path} (${(error as Error).message}). Check that it is a complete GGUF file (fetch it again if it was cut short).`,
      { file: path },
      { cause: error },
    );
  }
  const trainContextSize = model.trainContextSize;
  const contextSize = Math.max(256, Math.min(options.contextSize, trainContextSize));
  const maxSlots = Math.max(1, options.sequences ?? 2);
  const slots: LocalSlot[] = [];
  const waiters: (() => void)[] = [];
  let chatWrapper: ChatWrapper | undefined;

  async function newSlot(): Promise<LocalSlot> {
    const context = await model.createContext({
      contextSize,
      sequences: 1,
      // node-llama-cpp's CPU default is at least 4 threads, which on fewer cores wait on each
      // other at every step: one thread per math core (figures: docs/local-models.md).
      threads: options.threads ?? llama.cpuMathCores,
    });
    const sequence = context.getSequence();
    const chat = new module.LlamaChat({
      contextSequence: sequence,
      ...(chatWrapper ? { chatWrapper } : {}),
    });
    if (!chatWrapper) {
      chatWrapper = chat.chatWrapper;
      fixChatWrapper(chatWrapper, module);
    }
    const slot: LocalSlot = { chat, sequence, busy: false };
    slots.push(slot);
    return slot;
  }

  // The first sequence up front: it gives the chat wrapper the prompts are rendered with.
  await newSlot();

  const runtime: LocalRuntime = {
    path,
    module,
    model,
    chatWrapper: chatWrapper as unknown as ChatWrapper,
    contextSize,
    trainContextSize,
    promptTokens(history, functions) {
      const last = history[history.length - 1];
      const withResponse: ChatHistoryItem[] =
        last?.type === "model" ? history : [...history, { type: "model", response: [] }];
      const state = runtime.chatWrapper.generateContextState({
        chatHistory: withResponse,
        ...(functions ? { availableFunctions: functions } : {}),
      });
      return state.contextText.tokenize(model.tokenizer);
    },
    async acquire(tokens, signal) {
      for (;;) {
        if (signal?.aborted)
          throw new SpillwayError("ABORTED", "Aborted while waiting for the local model.", {
            file: path,
          });
        const free = slots.filter((slot) => !slot.busy);
        let best: LocalSlot | undefined;
        let bestPrefix = -1;
        for (const slot of free) {
          const prefix = commonPrefix(slot.sequence.contextTokens, tokens);
          if (prefix > bestPrefix) {
            best = slot;
            bestPrefix = prefix;
          }
        }
        // A fresh sequence when every free one holds another conversation and room is left.
        const unrelated = best !== undefined && bestPrefix < 16 && best.sequence.nextTokenIndex > 0;
        if ((best === undefined || unrelated) && slots.length < maxSlots) {
          try {
            best = await newSlot();
          } catch (error) {
            if (best === undefined) throw error;
          }
        }
        if (best !== undefined) {
          best.busy = true;
          return best;
        }
        await new Promise<void>((resolve) => {
          const wake = () => {
            signal?.removeEventListener("abort", wake);
            resolve();
          };
          waiters.push(wake);
          signal?.addEventListener("abort", wake, { once: true });
        });
      }
    },
    release(slot) {
      slot.busy = false;
      // Every waiter looks again (an aborted one leaves; the first to look takes the slot).
      for (const wake of waiters.splice(0)) wake();
    },
  };
  return runtime;
}
