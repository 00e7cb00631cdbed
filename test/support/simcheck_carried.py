#!/usr/bin/env python3
"""simcheck.py on the stock the setups before this one left, as simcheck itself simulated them,
and with no material beyond the stock box.

  simcheck_carried.py SIMCHECK_PY CARRIED_JSON [simcheck options...]

CARRIED_JSON lists the setups before this one: [{"wcs": "origin=..;x=..;z=..", "dump": DIR,
"origin_xy": [x0, y0], "cell": c}, ...], DIR holding the h.npy simcheck --dump wrote for it.
A point of the stock is still material when every setup before left it: its height in that
setup's frame is at most that setup's remaining height there (the lowest of the four cells
around it and its eight neighbours, so a wall's edge is never read as material it is not). The height field this setup
starts from is, per cell, the highest such point of its column (sampled every cell of the
coarsest setup before, so it may stand up to one such cell below the truth), never
below the part; a column with none is empty. A field of more than MAX_COLUMNS cells is read on
every f-th column, each cell taking the lowest of the coarse columns around it: a little less
material than there is near walls, never more (no rapid is judged into material that is not).
simcheck's grid ends on whole cells, so its last row and column reach past the stock by up to a
cell: those cells are empty here, as they are (simcheck took them for stock at its top). Everything else is simcheck's own (its main()).
"""
import importlib.util
import json
import sys

import numpy as np

EMPTY = -1e9
# columns read of this setup's field at most: more are read on a coarser grid
MAX_COLUMNS = 150_000


def load(path):
    spec = importlib.util.spec_from_file_location('simcheck', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def lowest_around(h):
    """per cell, the lowest of the 2 x 2 cells around each of its corners: a padded min filter"""
    p = np.pad(h, 1, mode='edge')
    return np.minimum.reduce([p[a:a + h.shape[0], b:b + h.shape[1]] for a in range(3) for b in range(3)])


def carried_tops(sc, wcs, stock, before, xc, yc, ptop):
    """this setup's starting heights at the cell centres xc x yc (see the docstring)"""
    o, M = sc.parse_wcs(wcs)
    earlier = []
    for b in before:
        oj, Mj = sc.parse_wcs(b['wcs'])
        h = lowest_around(np.load(b['dump'] + '/h.npy'))
        earlier.append((oj, Mj, h, b['origin_xy'], b['cell']))
    # a large field is read on every f-th column, each fine cell taking the lowest of the coarse
    # ones around it (less material, never more); the columns are sampled every coarse cell
    f = max(1, int(np.ceil(np.sqrt(len(xc) * len(yc) / MAX_COLUMNS))))
    cxc, cyc = xc[f // 2::f], yc[f // 2::f]
    corners = np.array([[stock[3] if c & 1 else stock[0], stock[4] if c & 2 else stock[1], stock[5] if c & 4 else stock[2]] for c in range(8)])
    zs = sc.to_prog(corners, o, M)[:, 2]
    step = max([e[4] for e in earlier] + [f * (xc[1] - xc[0] if len(xc) > 1 else 0.0)])
    z = np.arange(zs.max() - step / 2, zs.min(), -step)
    tops = np.full((len(cxc), len(cyc)), EMPTY)
    X, Y = np.meshgrid(cxc, cyc, indexing='ij')
    for zm in z:  # from the top down: a column's top is the first z found present
        open_ = tops == EMPTY
        if not open_.any():
            break
        pts = np.stack([X[open_], Y[open_], np.full(int(open_.sum()), zm)], axis=1)
        part = o + pts @ M.T
        present = np.ones(len(pts), dtype=bool)
        for oj, Mj, h, (x0, y0), cell in earlier:
            q = (part - oj) @ Mj
            i = np.clip(np.floor((q[:, 0] - x0) / cell).astype(np.int64), 0, h.shape[0] - 1)
            j = np.clip(np.floor((q[:, 1] - y0) / cell).astype(np.int64), 0, h.shape[1] - 1)
            present &= q[:, 2] <= h[i, j] + 1e-6
        found = np.zeros(open_.shape, dtype=bool)
        found[open_] = present
        tops[found] = zm
    if f > 1:
        tops = lowest_around(tops)
        ix = np.minimum(np.arange(len(xc)) // f, len(cxc) - 1)
        iy = np.minimum(np.arange(len(yc)) // f, len(cyc) - 1)
        tops = tops[np.ix_(ix, iy)]
    return np.where(np.isfinite(ptop), np.maximum(tops, ptop), tops)


def main():
    sc = load(sys.argv[1])
    before = json.load(open(sys.argv[2]))
    argv = sys.argv[3:]
    wcs = next(a.split('=', 1)[1] for a in argv if a.startswith('--wcs='))
    stock = sc.parse_vec(next(a.split('=', 1)[1] for a in argv if a.startswith('--stock=')), 6)
    plain = sc.Sim.__init__

    def starting_from_carried(self, *args, **kwargs):
        plain(self, *args, **kwargs)
        if before:
            self.h = np.minimum(self.h, carried_tops(sc, wcs, stock, before, self.xc, self.yc, self.ptop))
        # the grid's last row and column reach past the stock by up to a cell: no material there
        self.h[beyond_stock(sc, wcs, stock, self.xc, self.yc)] = EMPTY

    sc.Sim.__init__ = starting_from_carried
    return sc.main(argv)


def beyond_stock(sc, wcs, stock, xc, yc):
    o, M = sc.parse_wcs(wcs)
    corners = np.array([[stock[3] if c & 1 else stock[0], stock[4] if c & 2 else stock[1], stock[5] if c & 4 else stock[2]] for c in range(8)])
    inside = sc.to_prog(corners, o, M)
    lo, hi = inside.min(axis=0), inside.max(axis=0)
    return ((xc < lo[0]) | (xc > hi[0]))[:, None] | ((yc < lo[1]) | (yc > hi[1]))[None, :]


if __name__ == '__main__':
    sys.exit(main())
