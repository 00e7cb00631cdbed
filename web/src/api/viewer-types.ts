/** What the project viewer's scene route answers (api/app-routes/viewer-scene.ts). */
export type Vec3 = [number, number, number];
export interface Box {
  min: Vec3;
  max: Vec3;
}

export interface ViewerTool {
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
  features: number[];
  parameters: { spindle_rpm: number; feed_mm_min: number; stepdown_mm: number; stepover_mm: number };
  engagement: { radial_p99_pct: number; radial_max_pct: number; axial_max_mm: number } | null;
  scallop_mm: number | null;
}

export interface ViewerSetup {
  index: number;
  name: string;
  direction: Vec3;
  wcs: { origin: Vec3; x_axis: Vec3; z_axis: Vec3 };
  work_offset: string;
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
  operation_ids: string[];
  blocks: { id: string; name: string; kind: string; operations: ViewerOperation[] }[];
}

export interface ViewerScene {
  job_id: string;
  postprocessor: string;
  part: { mesh_url: string; expires_at: string; bbox: Box } | null;
  machining_time_s: number;
  setups: ViewerSetup[];
}
