"""The boards' grid router (hardware/router.py): a net ends in one piece of copper whatever
the calls that routed it, and every pad it counts reached is joined by the copper it draws
(read back by the connectivity proof's own joining, hardware/connectivity.py)."""

from .conftest import load_hardware


class DrawnCopper:
    """Stands in for the pcbnew board: the tracks the router draws."""

    def __init__(self):
        self.tracks = []

    def track(self, points, net, width, layer):
        for a, b in zip(points, points[1:], strict=False):
            self.tracks.append((a, b, width / 2, layer, net))


def _pieces(pads, drawn):
    """{net: number of pieces} of the pads and the drawn tracks, as the proof joins them."""
    connectivity = load_hardware("connectivity")
    rows = [("P%d" % k, "1", p.at[0], p.at[1], min(p.half), max(p.half), ("F",), False,
             0 if p.half[0] >= p.half[1] else 90) for k, p in enumerate(pads)]
    tracks = [(a, b, half, layer) for a, b, half, layer, _ in drawn.tracks]
    copper = connectivity.join_copper(rows, tracks, [])
    out = {}
    for pad, group in zip(pads, copper.group, strict=True):
        out.setdefault(pad.net, set()).add(group)
    return {net: len(groups) for net, groups in out.items()}


def _router(pads):
    router_mod = load_hardware("router")
    drawn = DrawnCopper()
    router = router_mod.Router(drawn, (0.0, 0.0, 30.0, 30.0))
    for pad in pads:
        router.add_pad(pad)
    return router, drawn


def test_a_net_routed_in_several_calls_ends_in_one_piece():
    Pad = load_hardware("router").Pad
    a, b, c, d = (Pad("N", at, "F", half=(0.5, 0.5))
                  for at in ((5.0, 5.0), (12.0, 5.0), (5.0, 22.0), (12.0, 22.0)))
    router, drawn = _router([a, b, c, d])
    router.route("N", [a, b])
    router.route("N", [c, d])
    assert _pieces([a, b, c, d], drawn) == {"N": 2}
    router.route("N", [a, b, c, d])  # the two pieces joined, not taken as one already
    assert _pieces([a, b, c, d], drawn) == {"N": 1}


def test_pads_between_another_nets_pads_are_joined_by_the_copper_drawn():
    """Fine-pitch pads between another net's: the stubs the search counts on are drawn."""
    Pad = load_hardware("router").Pad
    pads = [Pad("A" if k % 2 == 0 else "B%d" % k, (8.0 + 1.27 * k, 10.0), "F",
                half=(0.3, 0.975)) for k in range(9)]  # a chip's row of pins
    pads.append(Pad("A", (10.0, 24.0), "F", half=(0.5, 0.5)))
    router, drawn = _router(pads)
    router.route("A", [p for p in pads if p.net == "A"])
    assert _pieces(pads, drawn)["A"] == 1
