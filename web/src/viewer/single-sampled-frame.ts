/**
 * A frame drawn without multisampling on the viewer's multisampled canvas: the scene into a
 * render target of one sample per pixel (half floats, linear light, as three.js renders into a
 * target), then that picture onto the canvas with one triangle that covers it, encoded to sRGB
 * there. On a software renderer (SwiftShader, llvmpipe) multisampling every triangle and line
 * of a big plan costs a third of each frame; the canvas's own samples then only see the one
 * triangle. The viewer draws its moving frames so; its still frames go straight to the canvas,
 * antialiased.
 */
import {
  BufferGeometry,
  type Camera,
  Float32BufferAttribute,
  HalfFloatType,
  Mesh,
  MeshBasicMaterial,
  OrthographicCamera,
  type Scene,
  Vector2,
  type WebGLRenderer,
  WebGLRenderTarget,
} from "three";

export class SingleSampledFrame {
  private readonly target = new WebGLRenderTarget(1, 1, { type: HalfFloatType, samples: 0 });
  private readonly material = new MeshBasicMaterial({ map: this.target.texture, depthTest: false, depthWrite: false });
  private readonly cover: Mesh;
  private readonly camera = new OrthographicCamera(-1, 1, 1, -1, 0, 1);
  private readonly size = new Vector2();

  constructor(private readonly renderer: WebGLRenderer) {
    // one triangle over the whole view: no seam along a quad's diagonal
    const geometry = new BufferGeometry();
    geometry.setAttribute("position", new Float32BufferAttribute([-1, 3, 0, -1, -1, 0, 3, -1, 0], 3));
    geometry.setAttribute("uv", new Float32BufferAttribute([0, 2, 0, 0, 2, 0], 2));
    this.material.toneMapped = false;
    this.cover = new Mesh(geometry, this.material);
    this.cover.frustumCulled = false;
  }

  render(scene: Scene, camera: Camera): void {
    this.renderer.getDrawingBufferSize(this.size);
    if (this.target.width !== this.size.x || this.target.height !== this.size.y)
      this.target.setSize(this.size.x, this.size.y);
    this.renderer.setRenderTarget(this.target);
    this.renderer.render(scene, camera);
    this.renderer.setRenderTarget(null);
    this.renderer.render(this.cover, this.camera);
  }

  dispose(): void {
    this.target.dispose();
    this.material.dispose();
    this.cover.geometry.dispose();
  }
}
