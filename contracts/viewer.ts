/**
 * What the web app's project viewer reads as JSON (docs/web-app.md, The viewer's data), declared
 * once for both sides: the server's routes (api/app-routes/viewer*.ts, the geometry thread's
 * features) build these shapes from the stored plan, and the web app reads them. The binary
 * answers (toolpaths, stock) have their own codecs. Types only: the browser's build imports
 * this module, so it imports nothing.
 */

/** x, y, z in millimetres */
export type Vec3 = [number, number, number];

export interface Box {
  min: Vec3;
  max: Vec3;
}

export interface ViewerTool {
  /** the tool's number in the setup's tool list, null for a tool the list does not hold */
  number: number | null;
  name: string;
  tool_type: string;
  kind: string;
  diameter_mm: number;
  corner_radius_mm: number;
  flute_length_mm: number;
  shank_diameter_mm: number;
  stick_out_mm: number;
  holder_name: string | null;
  /** from the nose upwards, as the plan keeps it */
  holder: { length_mm: number; lower_diameter_mm: number; upper_diameter_mm: number }[];
}

export interface ViewerOperation {
  id: string;
  kind: string;
  name: string;
  tool: ViewerTool;
  machining_time_s: number;
  move_count: number;
  clearance_z: number;
  /** the ids of the recognised features it machines (ViewerFeature.id) */
  features: number[];
  parameters: { spindle_rpm: number; feed_mm_min: number; stepdown_mm: number; stepover_mm: number };
  engagement: { radial_p99_pct: number; radial_max_pct: number; axial_max_mm: number } | null;
  scallop_mm: number | null;
}

export interface ViewerSetup {
  index: number;
  name: string;
  /** the tool axis in workpiece coordinates */
  direction: Vec3;
  /** the setup's frame in the workpiece's coordinates: the part is drawn through it */
  wcs: { origin: Vec3; x_axis: Vec3; z_axis: Vec3 };
  work_offset: string;
  /** in the setup's frame */
  stock: Box;
  machining_time_s: number;
  verification: {
    gouges: number;
    rapids_through_material: number;
    holder_collisions: number;
    workholding_collisions?: number;
    material_left_pct: number;
  };
  workholding: { type: string; jaws: Box[]; supports: Box[]; clamps: Box[] } | null;
  /** the operations in the order the binary toolpaths list them */
  operation_ids: string[];
  blocks: { id: string; name: string; kind: string; operations: ViewerOperation[] }[];
}

/** GET /projects/{project_id}/viewer */
export interface ViewerScene {
  job_id: string;
  /** the machine's control, for the G-code lines the toolpaths carry */
  postprocessor: string;
  part: { mesh_url: string; expires_at: string; bbox: Box } | null;
  machining_time_s: number;
  setups: ViewerSetup[];
}

/** A recognised feature as the viewer colours and describes it. */
export interface ViewerFeature {
  id: number;
  class: string;
  /** the part glb's _FACE_IDs */
  faces: number[];
  access_direction: Vec3 | null;
  depth_mm: number | null;
  /** the narrowest place a tool must pass */
  width_mm: number | null;
  /** the smallest internal corner radius */
  corner_radius_mm: number | null;
  hole: {
    diameter_mm: number;
    depth_mm: number;
    through: boolean;
    counterbore_diameter_mm: number | null;
    countersink_diameter_mm: number | null;
  } | null;
  /** the indexes of the setups whose operations machine it */
  setups: number[];
}

/** GET /projects/{project_id}/features */
export interface ViewerFeatures {
  job_id: string;
  features: ViewerFeature[];
}
