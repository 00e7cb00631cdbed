/**
 * Tools the spindle cannot turn fast enough: an end mill whose recommended cutting speed needs
 * more rpm than the machine has runs at the machine's maximum, at a slower surface speed and a
 * feed slower by the same ratio (the chip per tooth is kept). The planner finishes walls with a
 * smaller tool only where the larger ones left stock (milling/wall-stock.ts); what such a tool
 * still costs is reported once per tool and setup (`spindle_limited_tool`), with the seconds its
 * milling operations take and how many more than at the recommended speed.
 *
 * partC on the vmc-850 (10,000 rpm) in aluminium: a 1 mm end mill asks for 95,493 rpm (300 m/min)
 * and cuts at 31.4 m/min, so it feeds at a tenth of the recommended feed.
 */
import type { MachineArchetype } from "../../machines/archetypes.ts";
import { operationTime, type OperationTime } from "../machining-time.ts";
import type { PlanWarning } from "../plan-types.ts";
import { cuttingParametersFor } from "../tooling/feeds.ts";
import type { Operation, OperationKind } from "../types.ts";

/** the operations of milling cutters, whose feed follows the rpm (drills and taps have no larger tool to turn to) */
const MILLING: ReadonlySet<OperationKind> = new Set<OperationKind>([
  "face_milling",
  "roughing",
  "rest_roughing",
  "wall_finishing",
  "floor_finishing",
  "contour",
  "surface_finishing",
  "helical_boring",
]);

/**
 * Whether a spindle clamp on an operation of this kind is told by spindle_limited_tool (once per
 * tool and setup, with its time), so the operation need not warn of it again.
 */
export function spindleLimitTold(kind: OperationKind): boolean {
  return MILLING.has(kind);
}

/** What the cutting data asked of one operation's tool, when the spindle held it back. */
interface Limited {
  recommended_rpm: number;
  recommended_vc: number;
  vc: number;
}

/**
 * One `spindle_limited_tool` warning per tool of the setup whose milling operations run at the
 * machine's maximum rpm below their recommended one. `times` are the operations' own (the
 * setup's machining time, in the same order).
 */
export function spindleLimitedWarnings(
  setup: string,
  operations: readonly Operation[],
  times: readonly OperationTime[],
  machine: MachineArchetype,
  materialId: string,
): PlanWarning[] {
  const byTool = new Map<string, { name: string; limited: Limited; seconds: number; recommended_s: number }>();
  operations.forEach((operation, i) => {
    const limited = spindleLimit(operation, machine, materialId);
    const time = times[i];
    if (limited === null || time === undefined) return;
    const at = atRecommended(operation, time, limited.recommended_rpm / operation.parameters.spindle_rpm, machine);
    const known = byTool.get(operation.tool.assembly_uuid);
    if (known === undefined) {
      byTool.set(operation.tool.assembly_uuid, {
        name: operation.tool.name,
        limited,
        seconds: time.total_s,
        recommended_s: at,
      });
      return;
    }
    known.seconds += time.total_s;
    known.recommended_s += at;
    // the finishing table asks for more than the roughing one: the larger shortfall is told
    if (limited.recommended_rpm > known.limited.recommended_rpm) known.limited = limited;
  });
  return [...byTool.values()].map(({ name, limited, seconds, recommended_s }) => {
    const longer = seconds - recommended_s;
    return {
      code: "spindle_limited_tool",
      message:
        `setup ${setup}: ${name} asks for ${limited.recommended_rpm} rpm (${limited.recommended_vc} m/min), ` +
        `${machine.name} turns at most ${machine.max_spindle_rpm} rpm: it cuts at ${limited.vc} m/min, and its operations ` +
        `take ${round1(seconds)} s, ${round1(longer)} s more than at the recommended speed`,
      details: {
        setup,
        tool: name,
        recommended_rpm: limited.recommended_rpm,
        max_spindle_rpm: machine.max_spindle_rpm,
        vc_m_min: limited.vc,
        recommended_vc_m_min: limited.recommended_vc,
        seconds: round1(seconds),
        seconds_longer: round1(longer),
      },
    };
  });
}

/** The cutting data's ask when the spindle held the operation back, else null. */
function spindleLimit(operation: Operation, machine: MachineArchetype, materialId: string): Limited | null {
  if (!MILLING.has(operation.kind)) return null;
  const { parameters, conditions, clamps } = cuttingParametersFor(operation.tool, materialId, machine, operation.kind);
  // an operation made with other options than these (another speed) is not judged
  if (parameters.spindle_rpm !== operation.parameters.spindle_rpm) return null;
  if (!clamps.some((clamp) => clamp.code === "max_spindle_rpm")) return null;
  return {
    recommended_rpm: conditions.recommended.spindleRpm,
    recommended_vc: conditions.recommended.vcMPerMin,
    vc: conditions.vcMPerMin,
  };
}

/** The operation's seconds with every feed `ratio` times faster (within the machine's max feed): at the recommended rpm. */
function atRecommended(operation: Operation, time: OperationTime, ratio: number, machine: MachineArchetype): number {
  const faster: Operation = {
    ...operation,
    moves: operation.moves.map((move) =>
      move.kind === "linear" || move.kind === "arc"
        ? { ...move, feed: Math.max(move.feed, Math.min(move.feed * ratio, machine.max_feed_mm_min)) }
        : move,
    ),
  };
  // the time saved is all in the feed moves: the rapids (from wherever the tool came) are the same
  return time.total_s - (operationTime(operation, machine).total_s - operationTime(faster, machine).total_s);
}

const round1 = (value: number): number => Math.round(value * 10) / 10;
