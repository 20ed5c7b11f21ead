"""A grid router for the generated circuit boards (the controller and the rails): KiCad 6's
``pcbnew`` module has no autorouter, so the boards' copper is found here, on a grid, two layers,
and written with pcbnew; KiCad's own design-rule check then judges it (hardware/pcb.py ``drc``).

    router = Router(board, (x0, y0, x1, y1))        # board: a hardware.pcb.Tile being built
    router.add_pad(pad_shape)                       # every pad, before any routing
    router.route("ROW1", [pad_a, pad_b], width=0.25)

The grid's pitch is a quarter of 2.54 mm, so a track passes between two header pins. A point of
the grid is free, owned by a net (a track of that net may be centred there) or blocked, per layer
and per track width: a copper item marks every point nearer to it than its clearance plus the
track's half width, plus a margin that covers the straight step between two grid points. A net is
routed pad by pad with A* (a via costs steps, so does a turn): the router keeps each net's pieces
of copper apart (a pad, and what earlier routes joined it to) and joins every pad's piece to the
first pad's, from any point of that piece, so a net routed in several calls still ends in one
piece. A pad is reached by a short stub from its centre to a grid point, checked exactly; the
stub the search counts on is the one drawn.
"""

import heapq
import math

import numpy as np

FREE = -1
BLOCKED = -2
PITCH = 0.635
CLEARANCE = 0.2  # KiCad's default copper clearance, which the design-rule check applies
MARGIN = 0.08  # a straight step between two clear grid points stays clear
EDGE = 0.5  # copper to the board's edge
VIA = (0.6, 0.3)  # diameter, drill
VIA_COST = 8
TURN_COST = 2
CROWD_COST = 1.5
MAX_EXPANDED = 1_500_000  # a search that finds nothing gives up (a walled-in pad)
LAYERS = ("F", "B")


class RoutingError(RuntimeError):
    pass


class Pad:
    """A pad as the router sees it: net, centre, layers ("F", "B" or both), shape."""

    def __init__(self, net, at, layers, radius=None, half=None):
        self.net = net
        self.at = at
        self.layers = layers
        self.radius = radius  # a round pad
        self.half = half  # a rectangular pad: (half width, half height)

    def distance(self, x, y):
        """From (x, y) to the pad's copper (negative inside)."""
        if self.radius is not None:
            return math.hypot(x - self.at[0], y - self.at[1]) - self.radius
        dx = abs(x - self.at[0]) - self.half[0]
        dy = abs(y - self.at[1]) - self.half[1]
        if dx <= 0 and dy <= 0:
            return max(dx, dy)
        return math.hypot(max(dx, 0), max(dy, 0))


def _segment_distance(px, py, ax, ay, bx, by):
    """Arrays px, py to the segment (a, b)."""
    vx, vy = bx - ax, by - ay
    length2 = vx * vx + vy * vy
    if length2 == 0:
        return np.hypot(px - ax, py - ay)
    t = np.clip(((px - ax) * vx + (py - ay) * vy) / length2, 0.0, 1.0)
    return np.hypot(px - (ax + t * vx), py - (ay + t * vy))


class Router:
    def __init__(self, board, bounds, pitch=PITCH, align=None):
        """``align``: a point the grid passes through (a row of fine-pitch pins on the grid
        lets a track pass between them)."""
        self.board = board
        x0, y0, x1, y1 = bounds
        if align is not None:
            x0 = align[0] - math.floor((align[0] - x0) / pitch) * pitch
            y0 = align[1] - math.floor((align[1] - y0) / pitch) * pitch
        self.x0, self.y0, self.pitch = x0, y0, pitch
        self.nx = int(math.floor((x1 - x0) / pitch + 1e-9)) + 1
        self.ny = int(math.floor((y1 - y0) / pitch + 1e-9)) + 1
        self.bounds = bounds
        self.xs = x0 + np.arange(self.nx) * pitch
        self.ys = y0 + np.arange(self.ny) * pitch
        self.grids = {}  # half width -> (F array, B array)
        self.items = []  # (layers, kind, geometry, net id): replayed into a new width's grids
        self.nets = {}
        self.pads = []
        self.held = {}  # net id -> set of grid nodes (layer, i, j) the net's copper holds
        self.groups = {}  # net id -> {pad id: the piece of copper the pad is part of}

    # ------------------------------------------------------------------ bookkeeping
    def net_id(self, name):
        return self.nets.setdefault(name, len(self.nets))

    def _grid(self, half):
        if half not in self.grids:
            arrays = []
            for _ in LAYERS:
                a = np.full((self.ny, self.nx), FREE, dtype=np.int32)
                # nothing nearer the board's edge than EDGE
                keep = EDGE + half + MARGIN
                x0, y0, x1, y1 = self.bounds
                a[:, (self.xs < x0 + keep) | (self.xs > x1 - keep)] = BLOCKED
                a[(self.ys < y0 + keep) | (self.ys > y1 - keep), :] = BLOCKED
                arrays.append(a)
            self.grids[half] = arrays
            for item in self.items:
                self._mark(item, only=half)
        return self.grids[half]

    def _mark(self, item, only=None):
        layers, kind, geom, net = item
        for half, arrays in self.grids.items():
            if only is not None and half != only:
                continue
            reach = CLEARANCE + MARGIN + half
            if kind == "pad":
                pad = geom
                extent = (pad.radius if pad.radius is not None else max(pad.half)) + reach
                bx0, by0 = pad.at[0] - extent, pad.at[1] - extent
                bx1, by1 = pad.at[0] + extent, pad.at[1] + extent
            else:
                (ax, ay), (bx, by), w = geom
                extent = w + reach
                bx0, by0 = min(ax, bx) - extent, min(ay, by) - extent
                bx1, by1 = max(ax, bx) + extent, max(ay, by) + extent
            i0 = max(0, int(math.floor((bx0 - self.x0) / self.pitch)))
            i1 = min(self.nx, int(math.ceil((bx1 - self.x0) / self.pitch)) + 1)
            j0 = max(0, int(math.floor((by0 - self.y0) / self.pitch)))
            j1 = min(self.ny, int(math.ceil((by1 - self.y0) / self.pitch)) + 1)
            if i0 >= i1 or j0 >= j1:
                continue
            px, py = np.meshgrid(self.xs[i0:i1], self.ys[j0:j1])
            if kind == "pad":
                if pad.radius is not None:
                    d = np.hypot(px - pad.at[0], py - pad.at[1]) - pad.radius
                else:
                    dx = np.abs(px - pad.at[0]) - pad.half[0]
                    dy = np.abs(py - pad.at[1]) - pad.half[1]
                    d = np.where((dx <= 0) & (dy <= 0), np.maximum(dx, dy),
                                 np.hypot(np.maximum(dx, 0), np.maximum(dy, 0)))
            else:
                d = _segment_distance(px, py, ax, ay, bx, by) - w
            near = d < reach
            for li, layer in enumerate(LAYERS):
                if layer not in layers:
                    continue
                sub = arrays[li][j0:j1, i0:i1]
                clash = near & (sub != FREE) & (sub != net)
                sub[near & (sub == FREE)] = net
                sub[clash] = BLOCKED

    def add_track(self, layer, a, b, half, net_name):
        """Copper drawn before the routing (a fan-out), as the router must avoid it."""
        self._add(layer, "seg", (a, b, half), self.net_id(net_name))

    def _add(self, layers, kind, geom, net):
        item = (layers, kind, geom, net)
        self.items.append(item)
        self._mark(item)

    def add_pad(self, pad):
        """Every pad goes in before the first route (unconnected pads too: they are copper)."""
        pad.net_id = self.net_id(pad.net) if pad.net else BLOCKED - 1 - len(self.pads)
        self.pads.append(pad)
        self._add(pad.layers, "pad", pad, pad.net_id)

    def add_keepout(self, at, radius):
        """A hole or a part's body nothing may cross (both layers)."""
        pad = Pad(None, at, "FB", radius=radius)
        self._add("FB", "pad", pad, BLOCKED)

    # ------------------------------------------------------------------ searching
    def node_at(self, x, y):
        return (int(round((x - self.x0) / self.pitch)), int(round((y - self.y0) / self.pitch)))

    def xy(self, i, j):
        return (round(self.x0 + i * self.pitch, 4), round(self.y0 + j * self.pitch, 4))

    def _stub_clear(self, net, layer, a, b, half):
        """The short track from a pad's centre to a grid point, against every other copper
        item near it (exact, sampled every 0.05 mm)."""
        steps = max(2, int(math.hypot(b[0] - a[0], b[1] - a[1]) / 0.05) + 1)
        pts = [(a[0] + (b[0] - a[0]) * k / (steps - 1), a[1] + (b[1] - a[1]) * k / (steps - 1))
               for k in range(steps)]
        lim = CLEARANCE + half + 0.01
        box = (min(a[0], b[0]) - 3, min(a[1], b[1]) - 3, max(a[0], b[0]) + 3,
               max(a[1], b[1]) + 3)
        for layers, kind, geom, owner in self.items:
            if owner == net or layer not in layers:
                continue
            if kind == "pad":
                pad = geom
                if not (box[0] - 5 < pad.at[0] < box[2] + 5
                        and box[1] - 5 < pad.at[1] < box[3] + 5):
                    continue
                if any(pad.distance(x, y) < lim for x, y in pts):
                    return False
            else:
                (ax, ay), (bx, by), w = geom
                if max(ax, bx) < box[0] or min(ax, bx) > box[2] or \
                        max(ay, by) < box[1] or min(ay, by) > box[3]:
                    continue
                px = np.array([p[0] for p in pts])
                py = np.array([p[1] for p in pts])
                if (_segment_distance(px, py, ax, ay, bx, by) - w < lim).any():
                    return False
        return True

    def _access(self, pad, half):
        """{node: stub length} of the grid points a track of this width reaches the pad from.
        A point whose track would not lie wholly on the pad's copper is one only if the stub
        from the pad's centre to it is clear: ``_commit`` draws exactly that stub."""
        grids = self._grid(half)
        out = {}
        size = pad.radius if pad.radius is not None else max(pad.half)
        reach = size + 1.6 * self.pitch
        ci, cj = self.node_at(*pad.at)
        span = int(reach / self.pitch) + 1
        for i in range(ci - span, ci + span + 1):
            for j in range(cj - span, cj + span + 1):
                if not (0 <= i < self.nx and 0 <= j < self.ny):
                    continue
                x, y = self.xy(i, j)
                dist = math.hypot(x - pad.at[0], y - pad.at[1])
                if dist > reach:
                    continue
                for li, layer in enumerate(LAYERS):
                    if layer not in pad.layers:
                        continue
                    if grids[li][j, i] not in (FREE, pad.net_id):
                        continue
                    if self._needs_stub(pad, (x, y), half) and not self._stub_clear(
                            pad.net_id, layer, pad.at, (x, y), half):
                        continue
                    out[(li, i, j)] = dist
        return out

    @staticmethod
    def _needs_stub(pad, at, half):
        """A track ending at ``at`` reaches the pad by a stub from its centre unless it ends
        on the pad's centre or half its width inside the pad's copper."""
        return (math.hypot(at[0] - pad.at[0], at[1] - pad.at[1]) > 1e-6
                and pad.distance(*at) > -half)

    def _search(self, net, sources, targets, half):
        grids = self._grid(half)
        vias = self._grid(VIA[0] / 2)
        tx = [t[1] for t in targets]
        ty = [t[2] for t in targets]
        tbox = (min(tx), min(ty), max(tx), max(ty))

        def h(i, j):
            dx = max(tbox[0] - i, 0, i - tbox[2])
            dy = max(tbox[1] - j, 0, j - tbox[3])
            return dx + dy

        best = {}
        parent = {}
        heap = []
        for node, cost in sources.items():
            c = cost / self.pitch
            best[node] = c
            parent[node] = None
            heapq.heappush(heap, (c + h(node[1], node[2]), c, node, None))
        expanded = 0
        while heap and expanded < MAX_EXPANDED:
            expanded += 1
            _, cost, node, direction = heapq.heappop(heap)
            if cost > best.get(node, math.inf):
                continue
            if node in targets:
                path = [node]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return path[::-1], node
            li, i, j = node
            steps = [((li, i + 1, j), 1.0, "x"), ((li, i - 1, j), 1.0, "x"),
                     ((li, i, j + 1), 1.0, "y"), ((li, i, j - 1), 1.0, "y")]
            if all(vias[k][j, i] in (FREE, net) for k in range(2)):
                steps.append(((1 - li, i, j), VIA_COST, "v"))
            for nxt, step, d in steps:
                nl, ni, nj = nxt
                if not (0 <= ni < self.nx and 0 <= nj < self.ny):
                    continue
                if grids[nl][nj, ni] not in (FREE, net):
                    continue
                c = cost + step + (TURN_COST if direction and d != direction and d != "v"
                                   and direction != "v" else 0)
                # beside another net's copper: dearer, so tracks keep a line free between
                # them and a later net can cross them by vias
                g = grids[nl]
                for ai, aj in ((ni + 1, nj), (ni - 1, nj), (ni, nj + 1), (ni, nj - 1)):
                    if 0 <= ai < self.nx and 0 <= aj < self.ny and g[aj, ai] not in (FREE, net):
                        c += CROWD_COST
                        break
                if nxt in targets:
                    c += targets[nxt] / self.pitch
                if c < best.get(nxt, math.inf):
                    best[nxt] = c
                    parent[nxt] = node
                    heapq.heappush(heap, (c + h(ni, nj), c, nxt, d))
        return None, None

    # ------------------------------------------------------------------ routing
    def _group(self, net, pad):
        """The piece of the net's copper a pad is part of (a new piece for a pad not yet
        routed): {"pads": [pads], "nodes": {grid nodes its tracks and vias hold}}."""
        groups = self.groups.setdefault(net, {})
        if id(pad) not in groups:
            groups[id(pad)] = {"pads": [pad], "nodes": set()}
        return groups[id(pad)]

    def _merge(self, net, keep, other):
        if other is keep:
            return
        keep["pads"].extend(other["pads"])
        keep["nodes"].update(other["nodes"])
        for p in other["pads"]:
            self.groups[net][id(p)] = keep

    def route(self, net_name, pads, width=0.25, fallback=0.25):
        """Join the pads of one net into one piece of copper: in the order given, each pad's
        piece (the pad alone, or the copper earlier routes joined it to) to the first pad's."""
        net = self.net_id(net_name)
        if len(pads) < 2:
            return
        held = self.held.setdefault(net, set())
        main = self._group(net, pads[0])
        for pad in pads[1:]:
            other = self._group(net, pad)
            if other is main:
                continue
            for w in (width, fallback) if width != fallback else (width,):
                half = w / 2
                grids = self._grid(half)
                sources, source_pad = self._ends(net, main, half, grids)
                targets, target_pad = self._ends(net, other, half, grids)
                if not sources or not targets:
                    continue
                path, end = self._search(net, sources, targets, half)
                if path:
                    break
            else:
                raise RoutingError("no route for %s to the pad at (%.2f, %.2f)" % (
                    net_name, pad.at[0], pad.at[1]))
            nodes = self._commit(net, net_name, path, w, source_pad.get(path[0]),
                                 target_pad.get(path[-1]))
            held.update(nodes)
            main["nodes"].update(nodes)
            self._merge(net, main, other)

    def _ends(self, net, group, half, grids):
        """{node: cost} a path may start or end at on a piece of copper, and {node: pad} of
        those reached by a stub to a pad (the others lie on the piece's tracks and vias)."""
        cost, via_pad = {}, {}
        for n in group["nodes"]:
            if grids[n[0]][n[2], n[1]] in (FREE, net):
                cost[n] = 0.0
        for p in group["pads"]:
            for node, stub in self._access(p, half).items():
                if node not in cost:
                    cost[node] = stub
                    via_pad[node] = p
        return cost, via_pad

    def _commit(self, net, name, path, width, source, target):
        """Tracks and vias along the path, stubs to the pads at its ends (``source``,
        ``target``: the pad a path's end reaches, None where it ends on the net's copper).
        Returns the grid nodes the new copper holds."""
        held = set()
        runs = [[path[0]]]
        for node in path[1:]:
            if node[0] != runs[-1][-1][0]:
                self._via(net, name, runs[-1][-1][1:])
                held.update({(0,) + tuple(runs[-1][-1][1:]), (1,) + tuple(runs[-1][-1][1:])})
                runs.append([node])
            else:
                runs[-1].append(node)
        for run in runs:
            layer = LAYERS[run[0][0]]
            pts = [self.xy(n[1], n[2]) for n in run]
            corners = [pts[0]]
            for k in range(1, len(pts) - 1):
                a, b, c = pts[k - 1], pts[k], pts[k + 1]
                if (b[0] - a[0]) * (c[1] - b[1]) != (b[1] - a[1]) * (c[0] - b[0]):
                    corners.append(b)
            corners.append(pts[-1])
            if len(corners) > 1 and corners[0] != corners[-1]:
                self._track(net, name, corners, width, layer)
        # the stubs: the very ones _access found clear (a pad counted reached is reached)
        for end, pad in ((path[-1], target), (path[0], source)):
            if pad is None:
                continue
            exy = self.xy(end[1], end[2])
            if self._needs_stub(pad, exy, width / 2):
                if not self._stub_clear(net, LAYERS[end[0]], pad.at, exy, width / 2):
                    raise RoutingError("the stub to the %s pad at (%.2f, %.2f) is not clear"
                                       % (name, pad.at[0], pad.at[1]))
                self._track(net, name, [pad.at, exy], width, LAYERS[end[0]])
        for run in runs:
            held.update(run)
        return held

    def _track(self, net, name, points, width, layer):
        points = [p for k, p in enumerate(points) if k == 0 or p != points[k - 1]]
        if len(points) < 2:
            return
        self.board.track(points, name, width, layer)
        for a, b in zip(points, points[1:], strict=False):
            self._add(layer, "seg", (a, b, width / 2), net)

    def place_via(self, name, at):
        """A via placed before the routing (a chip's supply pin goes down by it)."""
        net = self.net_id(name)
        self.held.setdefault(net, set())
        self._via(net, name, None, at)

    def _via(self, net, name, node, at=None):
        import pcbnew

        from .pcb import mm, point

        at = at or self.xy(*node)
        v = pcbnew.PCB_VIA(self.board.board)
        v.SetViaType(pcbnew.VIATYPE_THROUGH)
        v.SetPosition(point(*at))
        v.SetWidth(mm(VIA[0]))
        v.SetDrill(mm(VIA[1]))
        v.SetNet(self.board.net(name))
        self.board.board.Add(v)
        self.board.vias += 1
        pad = Pad(name, at, "FB", radius=VIA[0] / 2)
        self._add("FB", "pad", pad, net)
