/**
 * Exact Euclidean distance from every cell centre to the nearest marked cell centre, in cells:
 * the separable lower-envelope-of-parabolas transform (Felzenszwalb and Huttenlocher, "Distance
 * Transforms of Sampled Functions", 2012), a pass along the rows and one along the columns, each
 * linear in the cells.
 */

const FAR = 1e20;

/** Squared distances (cells²) from each cell to the nearest cell where `marked` is 1; FAR where none is. */
export function squaredDistances(marked: Uint8Array, nx: number, ny: number): Float64Array {
  const d = new Float64Array(nx * ny);
  for (let i = 0; i < d.length; i += 1) d[i] = marked[i] === 1 ? 0 : FAR;
  const n = Math.max(nx, ny);
  const f = new Float64Array(n);
  const out = new Float64Array(n);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  for (let iy = 0; iy < ny; iy += 1) {
    const base = iy * nx;
    for (let ix = 0; ix < nx; ix += 1) f[ix] = d[base + ix] as number;
    envelope(f, nx, out, v, z);
    for (let ix = 0; ix < nx; ix += 1) d[base + ix] = out[ix] as number;
  }
  for (let ix = 0; ix < nx; ix += 1) {
    for (let iy = 0; iy < ny; iy += 1) f[iy] = d[iy * nx + ix] as number;
    envelope(f, ny, out, v, z);
    for (let iy = 0; iy < ny; iy += 1) d[iy * nx + ix] = out[iy] as number;
  }
  return d;
}

/** One dimension: out[q] = min over p of (q - p)² + f[p]. */
function envelope(f: Float64Array, n: number, out: Float64Array, v: Int32Array, z: Float64Array): void {
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q += 1) {
    const fq = f[q] as number;
    if (fq >= FAR) continue;
    if ((f[v[0] as number] as number) >= FAR) {
      v[0] = q;
      continue;
    }
    // z[0] is -Infinity: the loop ends at k = 0 at the latest
    let s = intersection(f, q, v[k] as number);
    while (s <= (z[k] as number)) {
      k -= 1;
      s = intersection(f, q, v[k] as number);
    }
    k += 1;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  if ((f[v[0] as number] as number) >= FAR) {
    out.fill(FAR, 0, n);
    return;
  }
  k = 0;
  for (let q = 0; q < n; q += 1) {
    while ((z[k + 1] as number) < q) k += 1;
    const p = v[k] as number;
    out[q] = (q - p) * (q - p) + (f[p] as number);
  }
}

/** Where the parabolas of q and p cross. */
function intersection(f: Float64Array, q: number, p: number): number {
  return ((f[q] as number) + q * q - ((f[p] as number) + p * p)) / (2 * q - 2 * p);
}
