"""A small reader for KiCad netlists (the s-expression ``export`` format skidl writes); the
tests and the PCB generator (hardware/pcb.py, run by Debian's python3 with pcbnew) read the
committed netlists with it. Standard library only.

    nl = Netlist.parse(text)
    nl.pin_net[("U1", "4")]      # -> "COL_A"
    nl.nets["ROW1"]              # -> [("D1", "1"), ...]
    nl.comps["LED1"]["fields"]   # -> {"Cell": "a1", ...}
"""
import re

_TOKEN = re.compile(r'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|([^\s()"]+))')


def parse_sexp(text):
    stack = [[]]
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError("netlist: cannot parse at offset %d: %r" % (pos, text[pos:pos + 20]))
        pos = m.end()
        if m.group(1):
            stack.append([])
        elif m.group(2):
            done = stack.pop()
            stack[-1].append(done)
        elif m.group(3) is not None:
            stack[-1].append(m.group(3))
        else:
            stack[-1].append(m.group(4))
    if len(stack) != 1:
        raise ValueError("netlist: unbalanced parentheses")
    return stack[0][0]


def _find(node, key):
    return [x for x in node if isinstance(x, list) and x and x[0] == key]


def _value(node, key, default=None):
    found = _find(node, key)
    return found[0][1] if found and len(found[0]) > 1 else default


class Netlist:
    def __init__(self):
        self.comps = {}  # ref -> {"value", "footprint", "fields"}
        self.nets = {}  # net name -> [(ref, pin), ...]
        self.pin_net = {}  # (ref, pin) -> net name

    @classmethod
    def parse(cls, text):
        tree = parse_sexp(text)
        nl = cls()
        for comps in _find(tree, "components"):
            for comp in _find(comps, "comp"):
                fields = {}
                for fs in _find(comp, "fields"):
                    for f in _find(fs, "field"):
                        fields[_value(f, "name")] = f[2] if len(f) > 2 else ""
                nl.comps[_value(comp, "ref")] = {
                    "value": _value(comp, "value"),
                    "footprint": _value(comp, "footprint"),
                    "fields": fields,
                }
        for nets in _find(tree, "nets"):
            for net in _find(nets, "net"):
                name = _value(net, "name")
                nodes = [(_value(n, "ref"), _value(n, "pin")) for n in _find(net, "node")]
                nl.nets[name] = nodes
                for node in nodes:
                    nl.pin_net[node] = name
        return nl

    def net_of(self, ref, pin):
        return self.pin_net.get((ref, str(pin)))

    def refs_on(self, net):
        return sorted({r for r, _ in self.nets.get(net, [])})
