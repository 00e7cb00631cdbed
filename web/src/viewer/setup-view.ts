/**
 * The viewer's three.js scene of one setup, as the machine sees it: +Z (the tool axis) up,
 * the work offset at the origin. It renders on demand (a change of view, of what is shown, or
 * of the tool's position asks for one frame), so an idle page costs nothing; while the camera
 * moves, a lighter picture (half the resolution, no multisampling: single-sampled-frame.ts; a
 * big plan's toolpaths coarser), and when it stops the full one, antialiased. `frames` counts
 * the frames drawn (the canvas's data-frames, written with each still frame: the tests and the
 * benchmark read it).
 */
import {
  AmbientLight,
  Box3,
  BufferAttribute,
  type BufferGeometry,
  DirectionalLight,
  type Group,
  type Object3D,
  Mesh,
  MeshStandardMaterial,
  PerspectiveCamera,
  Raycaster,
  Scene,
  Vector2,
  Vector3,
  WebGLRenderer,
} from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import type { SetupToolpaths } from "../api/toolpath-buffer.ts";
import type { ViewerSetup, ViewerTool } from "../../../contracts/viewer.ts";
import { PART_MATERIAL, partMesh, setupObjects } from "./setup-objects.ts";
import type { StockMesh } from "./stock-mesh.ts";
import { linearColours, stockLayer } from "./stock-layer.ts";
import { SingleSampledFrame } from "./single-sampled-frame.ts";
import { toolModel } from "./tool-model.ts";
import { toolpathLines } from "./toolpath-lines.ts";

/** the share of the resolution frames are drawn at while the camera moves */
const MOVING_RESOLUTION = 0.5;
/**
 * the points of a setup's toolpaths drawn while the camera moves: a bigger plan shows every
 * n-th point joined until it stops (on SwiftShader STC-06's 20,000 coarse points cost 12 to 14 ms a
 * frame, 10,000 about 7 less)
 */
const MOVING_POINTS = 10_000;

/** the part coloured per vertex (features): the plain part's finish */
const PART_COLOURED = new MeshStandardMaterial({ vertexColors: true, metalness: 0.2, roughness: 0.55 });
/** GLTFLoader keeps a custom attribute under its name in lower case */
const FACE_ID_ATTRIBUTE = "_face_id";

export type StandardView = "top" | "front" | "right" | "iso";

const VIEW_DIRECTIONS: Record<StandardView, Vector3> = {
  // straight down, a hair towards -Y so the camera's up (+Z) is not along the view
  top: new Vector3(0, -1e-4, 1),
  front: new Vector3(0, -1, 0),
  right: new Vector3(1, 0, 0),
  iso: new Vector3(1, -1, 1),
};

/** The part's triangles from a workpiece's GLB (millimetres; the node's scale to metres is left out). */
export async function loadPartGeometry(url: string): Promise<BufferGeometry | null> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the part's mesh: HTTP ${response.status}`);
  const gltf = await new GLTFLoader().parseAsync(await response.arrayBuffer(), "");
  let geometry: BufferGeometry | null = null;
  gltf.scene.traverse((object) => {
    if (geometry === null && object instanceof Mesh) geometry = object.geometry as BufferGeometry;
  });
  return geometry;
}

export class SetupView {
  readonly renderer: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly camera = new PerspectiveCamera(35, 1, 0.5, 20000);
  private readonly controls: OrbitControls;
  private content: Group[] = [];
  private paths: Group[] = [];
  private tool: Group | null = null;
  private part: Mesh | null = null;
  private stock: Mesh | null = null;
  private readonly raycaster = new Raycaster();
  private frameAsked = false;
  private moving = false;
  /** how frames are drawn while the camera moves: without the canvas's multisampling */
  private readonly movingFrame: SingleSampledFrame;
  private readonly resizer: ResizeObserver;
  frames = 0;

  constructor(private readonly canvas: HTMLCanvasElement) {
    // opaque (three asks for an alpha channel): the compositor then copies the canvas instead
    // of blending it over the page, a saving on every frame in software
    const context = canvas.getContext("webgl2", { alpha: false, antialias: true, depth: true, stencil: false });
    if (!context) throw new Error("no WebGL 2");
    this.renderer = new WebGLRenderer({ canvas, context });
    this.movingFrame = new SingleSampledFrame(this.renderer);
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setClearColor(0xf7f8fa);
    this.camera.up.set(0, 0, 1);
    this.scene.add(new AmbientLight(0xffffff, 1.2));
    const light = new DirectionalLight(0xffffff, 2);
    light.position.set(0.4, -0.6, 1);
    // the light moves with the camera, so every side the user turns to is lit
    this.camera.add(light);
    this.scene.add(this.camera);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener("change", () => this.requestFrame());
    // while the camera moves, frames are drawn at half the resolution (a quarter of the pixels):
    // a big plan stays fluid on a slow GPU, and the still picture comes back sharp
    this.controls.addEventListener("start", () => this.setMoving(true));
    this.controls.addEventListener("end", () => this.setMoving(false));
    this.resizer = new ResizeObserver(() => this.resize());
    this.resizer.observe(canvas);
    this.resize();
  }

  /** Shows `setup`: its stock, workholding, axes, part (when given) and every operation's toolpaths. */
  show(setup: ViewerSetup, toolpaths: SetupToolpaths, part: BufferGeometry | null, kinds: string[]): void {
    this.clear();
    const objects = setupObjects(setup);
    this.content.push(objects);
    this.scene.add(objects);
    if (part) {
      const mesh = partMesh(part, setup);
      this.part = mesh;
      this.scene.add(mesh);
      this.content.push(mesh as unknown as Group);
    }
    const points = toolpaths.operations.reduce((sum, path) => sum + path.classes.length, 0);
    const stride = Math.ceil(points / MOVING_POINTS);
    this.paths = toolpaths.operations.map((path, k) => toolpathLines(path, kinds[k] ?? "", stride));
    for (const group of this.paths) this.scene.add(group);
    this.view("iso");
  }

  /** Shows only these operations' toolpaths (indices in the setup), or all of them (null). */
  only(indices: ReadonlySet<number> | null): void {
    this.paths.forEach((group, k) => {
      group.visible = indices === null || indices.has(k);
    });
    this.requestFrame();
  }

  /** The tool at `at` (setup frame), or none. */
  toolAt(tool: ViewerTool | null, at: readonly [number, number, number] | null): void {
    if (this.tool && (tool === null || this.tool.userData.name !== tool.name)) {
      this.scene.remove(this.tool);
      this.tool = null;
    }
    if (tool && at) {
      if (!this.tool) {
        this.tool = toolModel(tool);
        this.tool.userData.name = tool.name;
        this.scene.add(this.tool);
      }
      this.tool.position.set(at[0], at[1], at[2]);
    }
    this.requestFrame();
  }

  /** The simulated stock in `setup`'s frame, or none; the part hides while it shows, as the stock wraps it. */
  setStock(stock: StockMesh | null, setup: ViewerSetup): void {
    if (this.stock) {
      this.scene.remove(this.stock);
      this.stock.geometry.dispose();
      this.stock = null;
    }
    if (stock) {
      this.stock = stockLayer(stock, setup);
      this.scene.add(this.stock);
    }
    if (this.part) this.part.visible = this.stock === null;
    this.requestFrame();
  }

  /** The part's face id per vertex (the GLB's _FACE_ID), or null without a part. */
  partFaceIds(): ArrayLike<number> | null {
    const attribute = this.part?.geometry.getAttribute(FACE_ID_ATTRIBUTE);
    return attribute ? (attribute.array as ArrayLike<number>) : null;
  }

  /** Colours the part per vertex (r, g, b), or back to its plain grey (null). */
  colourPart(colours: Float32Array | null): void {
    if (!this.part) return;
    if (colours) {
      this.part.geometry.setAttribute("color", new BufferAttribute(linearColours(colours), 3));
      this.part.material = PART_COLOURED;
    } else {
      this.part.geometry.deleteAttribute("color");
      this.part.material = PART_MATERIAL;
    }
    this.requestFrame();
  }

  /** The face id of the part under a point of the canvas (client pixels), or null. */
  faceAt(clientX: number, clientY: number): number | null {
    if (!this.part?.visible) return null;
    const ids = this.part.geometry.getAttribute(FACE_ID_ATTRIBUTE);
    const rect = this.canvas.getBoundingClientRect();
    if (!ids || rect.width === 0 || rect.height === 0) return null;
    const at = new Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(at, this.camera);
    const hit = this.raycaster.intersectObject(this.part, false)[0];
    return hit?.face ? Math.round(ids.getX(hit.face.a)) : null;
  }

  /** Looks at what is shown from a standard direction, all of it in view. */
  view(name: StandardView): void {
    this.fit(VIEW_DIRECTIONS[name].clone().normalize());
  }

  /** Everything shown in view, from the current direction unless given. */
  fit(direction?: Vector3): void {
    const box = new Box3();
    for (const object of [...this.content, ...this.paths]) if (object.visible) box.expandByObject(object);
    if (box.isEmpty()) return;
    const centre = box.getCenter(new Vector3());
    const radius = box.getSize(new Vector3()).length() / 2;
    const towards = direction ?? this.camera.position.clone().sub(this.controls.target).normalize();
    const halfFov = (Math.min(this.camera.fov, this.camera.fov * this.camera.aspect) * Math.PI) / 360;
    const distance = radius / Math.sin(halfFov);
    this.controls.target.copy(centre);
    this.camera.position.copy(centre).addScaledVector(towards, distance);
    this.camera.near = Math.max(0.1, distance / 100);
    this.camera.far = distance * 10;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestFrame();
  }

  requestFrame(): void {
    if (this.frameAsked) return;
    this.frameAsked = true;
    requestAnimationFrame(() => {
      this.frameAsked = false;
      if (this.moving) this.movingFrame.render(this.scene, this.camera);
      else this.renderer.render(this.scene, this.camera);
      this.frames += 1;
      // a changed attribute restyles the page: written for still frames, with the moving ones counted
      if (!this.moving) this.canvas.dataset.frames = String(this.frames);
    });
  }

  private setMoving(moving: boolean): void {
    this.moving = moving;
    // a rounded canvas is clipped by a mask each frame the compositor draws: square while it moves
    this.canvas.classList.toggle("moving", moving);
    for (const group of this.paths) {
      const coarse = group.userData.coarse as Object3D | undefined;
      if (!coarse) continue;
      for (const child of group.children) child.visible = moving === (child === coarse);
    }
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2) * (moving ? MOVING_RESOLUTION : 1));
    this.resize();
  }

  private resize(): void {
    const width = this.canvas.clientWidth;
    const height = this.canvas.clientHeight;
    if (width === 0 || height === 0) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.requestFrame();
  }

  private clear(): void {
    for (const object of [...this.content, ...this.paths]) {
      this.scene.remove(object);
      object.traverse((child) => {
        if ("geometry" in child && child.geometry && typeof child.geometry === "object" && "dispose" in child.geometry)
          (child.geometry as BufferGeometry).dispose();
      });
    }
    if (this.tool) this.scene.remove(this.tool);
    this.tool = null;
    if (this.stock) {
      this.scene.remove(this.stock);
      this.stock.geometry.dispose();
    }
    this.stock = null;
    this.part = null;
    this.content = [];
    this.paths = [];
  }

  dispose(): void {
    this.clear();
    this.resizer.disconnect();
    this.controls.dispose();
    this.movingFrame.dispose();
    this.renderer.dispose();
  }
}
