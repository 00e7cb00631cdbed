/**
 * The simulation thread (verify-thread.ts): for each setup's channel, a SpeculativeVerifier that
 * judges the operations in the order they come and, asked for the result, hands the setup's
 * final height field over (transferred, not copied). Every reply bumps the channel's counter and
 * wakes the planner waiting on it. An exception is a reply too: the planner rethrows it.
 */
import { parentPort } from "node:worker_threads";
import { postReply } from "../../threads/helper-thread.ts";
import { lowerThreadPriority } from "../../threads/priority.ts";
import type { Operation } from "../types.ts";
import type { FromSimulation, OpenMessage, ToSimulation } from "./verify-thread.ts";
import { SetupVerifier, SpeculativeVerifier } from "./verify.ts";

if (parentPort === null) throw new Error("verify-thread-body.ts runs as a worker thread (verify-thread.ts starts it)");
// the planner waiting on this thread is the plan's critical path (threads/priority.ts)
lowerThreadPriority();

parentPort.on("message", (open: OpenMessage) => {
  const signal = new Int32Array(open.signal);
  const reply = (message: FromSimulation, transfer: ArrayBuffer[] = []): void =>
    postReply(open.port, signal, message, transfer);
  // the setup's field is made at once, while the planner makes the first operation; a failure
  // is the reply to the first message
  let simulation: SpeculativeVerifier | null = null;
  let failure: string | null = null;
  /** the operation being streamed (its moves come in "moves" messages) */
  let streamed: Operation | null = null;
  try {
    simulation = new SpeculativeVerifier(new SetupVerifier(open.setup, open.cellSize, open.carried));
  } catch (error) {
    failure = messageOf(error);
  }
  open.port.on("message", (message: ToSimulation) => {
    // alive: the planner waiting for a reply watches this move (verify-thread.ts: STALL_MS)
    Atomics.add(signal, 1, 1);
    try {
      if (simulation === null) throw new Error(failure ?? "the setup's result was already taken");
      switch (message.kind) {
        case "check":
          reply({
            kind: "judged",
            judgement: simulation.judge(message.operation, message.speculative, message.dropsKnown),
          });
          return;
        case "begin":
          streamed = message.operation;
          simulation.begin(streamed, message.speculative, message.dropsKnown);
          return;
        case "moves":
          simulation.feed(message.moves);
          return;
        case "end": {
          if (streamed === null) throw new Error("an operation ended that never began");
          const judgement = simulation.end(streamed);
          streamed = null;
          reply({ kind: "judged", judgement });
          return;
        }
        case "discard":
          simulation.discard();
          streamed = null;
          return;
        case "result": {
          const result = simulation.verifier.result();
          reply(
            { kind: "result", result: { ...result, operations: result.operations.map((operation) => operation.id) } },
            [result.field.heights.buffer as ArrayBuffer],
          );
          simulation = null;
        }
      }
    } catch (error) {
      reply({ kind: "failed", message: messageOf(error) });
    } finally {
      Atomics.add(signal, 1, 1);
    }
  });
  // the planner closed the channel: the setup is done or given up
  open.port.on("close", () => {
    simulation = null;
  });
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
