// The package's ES build has no declaration beside it; its types are one folder up.
declare module "clipper2-wasm/dist/es/clipper2z.js" {
  import type { MainModule } from "clipper2-wasm/dist/clipper2z.d.ts";
  const factory: () => Promise<MainModule>;
  export default factory;
}
