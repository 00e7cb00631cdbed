/**
 * Loads opencascade.js once per thread. Starting it costs seconds and about 580 MB, so a process
 * (or worker thread: each has its own module instance) keeps one instance for its lifetime.
 *
 * OCCT writes its diagnostics to stdout ("**** ERR StepFile : ..."); they are kept in a short
 * buffer instead, so a reader can quote the parser's complaint in the error it raises.
 */
import initOpenCascade, { type OpenCascadeInstance } from "opencascade.js/dist/node.js";
import { prepareRelease } from "./occt-release.ts";

export type { OpenCascadeInstance } from "opencascade.js/dist/node.js";

const MESSAGE_BUFFER_LINES = 200;
const messages: string[] = [];

function keepMessage(line: string): void {
  const trimmed = line.trim();
  if (trimmed === "") return;
  messages.push(trimmed);
  if (messages.length > MESSAGE_BUFFER_LINES) messages.splice(0, messages.length - MESSAGE_BUFFER_LINES);
}

let loading: Promise<OpenCascadeInstance> | undefined;

/** The thread's OCCT instance, started on first call. */
export function loadOpenCascade(): Promise<OpenCascadeInstance> {
  loading ??= initOpenCascade({ module: { print: keepMessage, printErr: keepMessage } }).then(
    (oc) => {
      prepareRelease(oc);
      return oc;
    },
    (error: unknown) => {
      loading = undefined; // let a later call try again
      throw error;
    },
  );
  return loading;
}

/** OCCT's console lines since the last call, oldest first (at most the last 200). */
export function takeOcctMessages(): string[] {
  return messages.splice(0, messages.length);
}

/**
 * A readable sentence for something OCCT threw: a C++ exception arrives as a number (the
 * address of a Standard_Failure), anything else as a JavaScript error.
 */
export function describeOcctException(oc: OpenCascadeInstance, error: unknown): string {
  if (typeof error === "number") {
    try {
      const message = oc.OCJS.getStandard_FailureData(error).GetMessageString();
      return message.trim() === "" ? "OCCT raised an exception without a message" : message.trim();
    } catch {
      return "OCCT raised an exception";
    }
  }
  return error instanceof Error ? error.message : String(error);
}
