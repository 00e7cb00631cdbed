/**
 * The work an adaptive clearing may do, counted in cells rather than milliseconds, so the same
 * input stops at the same place on a quiet machine and a loaded one (a wall-clock budget made
 * plans differ between the two).
 *
 * A cell is one grid cell the clearing reads or writes (grid.ts): a region costs its grid's cells
 * a few times over (filling, the distance transforms), a walked step the tool's disc twice (the
 * area it cuts, clearing it) and a path the distance window round it again (front.ts). These
 * are where the time goes; the engagement's samples along the disc's edge are a few hundred
 * against some thousands for the disc and are left out.
 */

/** filling the region and the material, the distances from the allowed cells and the front's */
const PASSES_PER_REGION = 4;

export class WorkBudget {
  private spent = 0;

  constructor(readonly cells: number) {}

  /** Counts `cells` of work done. */
  spend(cells: number): void {
    this.spent += cells;
  }

  get exhausted(): boolean {
    return this.spent > this.cells;
  }

  /** The work done so far (cells). */
  get used(): number {
    return this.spent;
  }
}

/** The work of setting up a region on a grid of `cells` cells. */
export function regionWork(cells: number): number {
  return PASSES_PER_REGION * cells;
}

/** The work of `steps` steps of a tool whose radius is `radiusCells` cells. */
export function stepsWork(steps: number, radiusCells: number): number {
  return 2 * Math.PI * radiusCells * radiusCells * steps;
}
