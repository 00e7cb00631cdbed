/**
 * The part's picture on the customer's quote document: the setup sheet's drawing
 * (setup-sheet/picture.ts) of the part alone, in workpiece coordinates, seen from the same
 * front-and-above view, without stock, workholding or work offset.
 */
import type { TriangleSoup } from "../cam/types.ts";
import type { Box3 } from "../math/box3.ts";
import { setupPicture } from "../setup-sheet/picture.ts";
import type { Picture } from "../setup-sheet/picture-shapes.ts";

const WORKPIECE_FRAME = { origin: [0, 0, 0], x_axis: [1, 0, 0], z_axis: [0, 0, 1] } as const;

export function partPicture(mesh: TriangleSoup, partBox: Box3): Picture {
  return setupPicture(
    {
      stock: partBox,
      wcs: {
        origin: [...WORKPIECE_FRAME.origin],
        x_axis: [...WORKPIECE_FRAME.x_axis],
        z_axis: [...WORKPIECE_FRAME.z_axis],
      },
      workholding: null,
      mesh,
      originLabel: "",
    },
    { width: 520, maxHeight: 360, maxTriangles: 4000, partOnly: true },
  );
}
