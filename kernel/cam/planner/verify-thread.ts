/**
 * The verification on a thread of its own, beside the planner's: while the planner makes an
 * operation, the simulation runs the one before it (verify.ts: speculation). On 2 cores this
 * hides most of the simulation's time, an eighth to a third of a NIST part's planning.
 *
 * The planner takes the simulation's replies synchronously (threads/helper-thread.ts). One
 * simulation thread per planning thread, started on first use and kept (a start costs 0.2 s);
 * each setup opens its own channel, closed when the setup is done or given up, so nothing of an
 * abandoned plan reaches the next one. A simulation that throws answers with its error, and the
 * plan fails with it; a thread that dies (out of memory) answers nothing, and the planner gives up
 * after STALL_MS without a sign of it working: the plan fails, never hangs.
 */
import { MessageChannel, type MessagePort, type Worker } from "node:worker_threads";
import { KeptThread, receiveReply, SIGNAL_BYTES } from "../../threads/helper-thread.ts";
import type { ColumnTops } from "../simulation/carried-stock.ts";
import type { Move, Operation } from "../types.ts";
import type { Judgement, OperationCheck, SimulatedSetup, VerifiedSetup } from "../plan-types.ts";

/**
 * The simulation thread counts every message it takes up and finishes (OpenMessage.signal[1]); a
 * planner waiting for a reply while that count stands still this long takes the thread for dead
 * (out of memory, say: a dying thread posts nothing) and fails the plan. One message, a level of
 * a roughing or a whole operation, takes seconds on a NIST part.
 */
const STALL_MS = 60_000;

/** A setup's channel to the simulation thread, sent as the thread's message. */
export interface OpenMessage {
  port: MessagePort;
  /** an Int32Array's buffer: [0] counts the replies posted, [1] the messages taken up and finished */
  signal: SharedArrayBuffer;
  setup: SimulatedSetup;
  carried: ColumnTops | null;
  cellSize: number | undefined;
}

/** "begin", "moves" and "end" stream an operation as it is made; "check" is all three at once */
export type ToSimulation =
  | { kind: "check"; operation: Operation; speculative: boolean; dropsKnown: number }
  | { kind: "begin"; operation: Operation; speculative: boolean; dropsKnown: number }
  | { kind: "moves"; moves: Move[] }
  | { kind: "end" }
  | { kind: "discard" }
  | { kind: "result" };

/** VerifiedSetup with the kept operations by id (the planner holds the operations) */
export type VerifiedByIds = Omit<VerifiedSetup, "operations"> & { operations: string[] };

export type FromSimulation =
  | { kind: "judged"; judgement: Judgement }
  | { kind: "result"; result: VerifiedByIds }
  | { kind: "failed"; message: string };

const thread = new KeptThread(new URL("./verify-thread-body.ts", import.meta.url));

/** The simulation thread as it is now (tests stop it to see a planner notice). */
export function runningSimulationThread(): Worker | null {
  return thread.running();
}

/** The verification of one setup on the simulation thread. */
export class ThreadedChecks implements OperationCheck {
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(SIGNAL_BYTES));
  private readonly submitted = new Map<string, Operation>();
  /** submissions whose reply has not been read, void ones included */
  private open = 0;
  private dropsKnown = 0;
  /** the operation being streamed, and how many of its moves were sent */
  private streamed: { id: string; sent: number } | null = null;

  /** `stallMs`: how long the thread may work on one message (tests shorten it) */
  constructor(
    setup: SimulatedSetup,
    carried: ColumnTops | null,
    cellSize?: number,
    private readonly stallMs = STALL_MS,
  ) {
    const { port1, port2 } = new MessageChannel();
    const message: OpenMessage = {
      port: port2,
      signal: this.signal.buffer as SharedArrayBuffer,
      // the setup's own fields only (a SetupPart carries much more); fixtures only when given,
      // so a setup without them reaches the thread as it did before them
      setup: {
        name: setup.name,
        stock: setup.stock,
        soup: setup.soup,
        holes: setup.holes,
        ...(setup.fixtures === undefined ? {} : { fixtures: setup.fixtures }),
      },
      carried,
      cellSize,
    };
    thread.get().postMessage(message, [port2]);
    this.port = port1;
  }

  submit(operation: Operation, speculative: boolean): void {
    this.submitted.set(operation.id, operation);
    if (this.streamed?.id === operation.id) {
      this.sendMoves(operation.moves);
      this.send({ kind: "end" });
      this.streamed = null;
    } else {
      this.discard();
      this.send({ kind: "check", operation, speculative, dropsKnown: this.dropsKnown });
    }
    this.open += 1;
  }

  stream(operation: Operation, speculative: boolean): void {
    if (this.streamed?.id !== operation.id) {
      this.discard();
      this.send({ kind: "begin", operation: { ...operation, moves: [] }, speculative, dropsKnown: this.dropsKnown });
      this.streamed = { id: operation.id, sent: 0 };
    }
    this.sendMoves(operation.moves);
  }

  discard(): void {
    if (this.streamed === null) return;
    this.send({ kind: "discard" });
    this.streamed = null;
  }

  next(wait: boolean): Judgement | null {
    while (this.open > 0) {
      const reply = this.receive(wait);
      if (reply === null) return null;
      if (reply.kind !== "judged") throw new Error(`the simulation thread answered ${reply.kind} to a check`);
      this.open -= 1;
      if (reply.judgement.verdict === "void") continue;
      if (reply.judgement.verdict === "dropped") this.dropsKnown += 1;
      return reply.judgement;
    }
    return null;
  }

  result(): VerifiedSetup {
    if (this.open > 0) throw new Error(`${this.open} submitted operations have no verdict yet`);
    this.send({ kind: "result" });
    const reply = this.receive(true);
    if (reply?.kind !== "result") throw new Error("the simulation thread did not answer with the setup's result");
    const operations = reply.result.operations.map((id) => {
      const operation = this.submitted.get(id);
      if (operation === undefined) throw new Error(`the simulation kept an operation it was never sent (${id})`);
      return operation;
    });
    return { ...reply.result, operations };
  }

  close(): void {
    this.port.close();
  }

  private send(message: ToSimulation): void {
    this.port.postMessage(message);
  }

  /** the streamed operation's moves not sent yet */
  private sendMoves(moves: readonly Move[]): void {
    const streamed = this.streamed as { sent: number };
    if (moves.length > streamed.sent) this.send({ kind: "moves", moves: moves.slice(streamed.sent) });
    streamed.sent = moves.length;
  }

  /** The next reply; null when there is none yet and `wait` is false. */
  private receive(wait: boolean): FromSimulation | null {
    const reply = receiveReply(this.port, this.signal, wait, this.stallMs, "the stock simulation") as
      | FromSimulation
      | undefined;
    if (reply?.kind === "failed") throw new Error(`the stock simulation failed: ${reply.message}`);
    return reply ?? null;
  }
}
