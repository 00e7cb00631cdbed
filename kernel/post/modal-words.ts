/**
 * What a control was last told of each axis and of the feed, in units (iso.ts: toUnits): a word
 * is written only when its value changes. Shared by the ISO and Klartext writers, which differ
 * only in how a value is written (X10. or X+10).
 */
import type { Vec3 } from "../cam/types.ts";
import { toUnits } from "./numbers.ts";

const AXES = ["X", "Y", "Z"];

export class ModalWords {
  /** each axis as last written, in units; null where the control must be told it again */
  told: (number | null)[] = [null, null, null];
  private feed: number | null = null;

  /**
   * @param decimals digits after the point of every word
   * @param axisValue an axis word's value, from its units
   * @param feedValue F's value, from its units
   */
  constructor(
    private readonly decimals: number,
    private readonly axisValue: (units: number) => string,
    private readonly feedValue: (units: number) => string,
  ) {}

  /** Axis i's word, and the control told it. */
  tell(i: number, value: number): string {
    const units = toUnits(value, this.decimals);
    this.told[i] = units;
    return AXES[i] + this.axisValue(units);
  }

  /** The axis words of a move to `to`, only those that changed ("" when none did). */
  axes(to: Vec3): string {
    let words = "";
    for (let i = 0; i < 3; i += 1) {
      const units = toUnits(to[i] as number, this.decimals);
      if (this.told[i] !== units) {
        words += (words === "" ? "" : " ") + AXES[i] + this.axisValue(units);
        this.told[i] = units;
      }
    }
    return words;
  }

  /** F with the feed when it changed, else "". */
  feedWord(value: number): string {
    const units = toUnits(value, this.decimals);
    if (this.feed === units) return "";
    this.feed = units;
    return `F${this.feedValue(units)}`;
  }

  /** The control was told this feed (inside a block of the writer's own). */
  toldFeed(value: number): void {
    this.feed = toUnits(value, this.decimals);
  }

  /** Where the control now believes the tool is, without a word: null where it must be told again. */
  tellAll(to: readonly (number | null)[]): void {
    this.told = to.map((value) => (value === null ? null : toUnits(value, this.decimals)));
  }
}
