"""The single description of the XoBo board: pins, LED chain, power figures and part choices.

Everything else is generated from this module: ``boards/*.json`` (what the firmware reads), the
skidl schematic and netlist, the bill of materials, the wiring tables and the power budget.
Change a pin here, run ``python -m hardware.generate``, commit the regenerated files.

    >>> from hardware import design
    >>> design.board_definition("pico_gpio")["matrix"]["cols"][0]
    'GP2'
    >>> design.CHAIN_OF_CELL[0], design.CHAIN_OF_CELL[9]   # a1 starts the chain, a2 ends rank 2
    (0, 17)

Geometry (shared with the rules engine): cell index = (rank-1)*9 + file, a1 = 0 (South-West),
i1 = 8, a2 = 9, i9 = 80; files a-i run West to East, ranks 1-9 South to North.
"""

SIZE = 9
N_CELLS = SIZE * SIZE
FILES = "abcdefghi"

# --- LED chain ---------------------------------------------------------------------------------
# The data line enters at a1 (South-West corner) and runs serpentine: rank 1 West->East, rank 2
# East->West, ... rank 9 West->East, ending under i9 (North-East corner). From there it goes on
# round the border anticlockwise: the North strip (i->a), the West strip (rank 9->1), the South
# strip (a->i), the East strip (rank 1->9), ending next to i9 again. One LED per cell along each
# edge, so the strip LED next to file/rank k is edges[...][k].
EDGE_LEDS = 9  # LEDs per edge strip
EDGE_ORDER = ("N", "W", "S", "E")  # order of the strips along the chain after the cells
LED_COUNT = N_CELLS + 4 * EDGE_LEDS


def cell_name(cell, size=SIZE):
    return "%s%d" % ("abcdefghijklmno"[cell % size], cell // size + 1)


def _serpentine(size=SIZE):
    """chain index of every cell (a1 first, rank 1 going East, rank 2 West, ...)."""
    chain_of_cell = [0] * (size * size)
    k = 0
    for rank in range(size):
        files = range(size) if rank % 2 == 0 else range(size - 1, -1, -1)
        for f in files:
            chain_of_cell[rank * size + f] = k
            k += 1
    return chain_of_cell


def _edges(size=SIZE):
    """Chain indices of the edge strips (one LED per file or rank), each listed in board order:
    N and S from file a (West to East), E and W from rank 1 (South to North)."""
    edges = {}
    k = size * size
    for edge in EDGE_ORDER:
        run = list(range(k, k + size))
        k += size
        # N runs i->a and W runs 9->1 along the chain: reverse to board order.
        edges[edge] = run[::-1] if edge in ("N", "W") else run
    return edges


CHAIN_OF_CELL = _serpentine()
EDGE_CHAIN = _edges()


def led_positions(size=SIZE):
    """What each chain index lights: a cell name ("a1") or an edge slot ("N-a", "E-1")."""
    pos = [""] * (size * size + 4 * size)
    for cell, k in enumerate(_serpentine(size)):
        pos[k] = cell_name(cell, size)
    for edge, run in _edges(size).items():
        for i, k in enumerate(run):
            pos[k] = "%s-%s" % (edge, "abcdefghijklmno"[i] if edge in ("N", "S") else str(i + 1))
    return pos

# --- LED electrical figures (WS2812B datasheet, rounded up) -----------------------------------
LED_MA_PER_CHANNEL = 20  # one colour channel at 255
LED_IDLE_MA = 1  # each LED's controller with all channels off

# --- Pin assignments ---------------------------------------------------------------------------
# Raspberry Pi Pico (RP2040). Columns GP2-GP10 are contiguous inputs so the firmware reads all 9
# columns in one SIO GPIO_IN read: (gpio_in >> 2) & 0x1FF. Rows GP11-GP19 are contiguous outputs
# (one GPIO_OUT write selects a row). GP0/GP1 stay free for UART0 (debug), GP20/GP21 free for
# I2C0 (expansion). GP22 feeds the LED level shifter. Buttons on GP26-GP28. GP23-25 and GP29 are
# used inside the Pico (SMPS mode, VBUS sense, on-board LED, VSYS/3 ADC) and never appear here.
PICO_ROWS = ["GP%d" % n for n in range(11, 20)]  # row r drives rank r+1 (active low)
PICO_COLS = ["GP%d" % n for n in range(2, 11)]  # col c reads file c (pull-up, low = closed)
PICO_LED_PIN = "GP22"
PICO_BUTTONS = {"ok": "GP26", "undo": "GP27", "hint": "GP28"}
PICO_INTERNAL = ("GP23", "GP24", "GP25", "GP29")
# The Pico's 40 header pins (Pico datasheet, pinout): pin number -> name.
PICO_PINOUT = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6",
    10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13",
    18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18",
    25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22", 30: "RUN", 31: "GP26",
    32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3", 37: "3V3_EN", 38: "GND",
    39: "VSYS", 40: "VBUS",
}

# Raspberry Pi + Blinka (BCM numbering as "Dn"). NeoPixel on a Pi needs D10, D12, D18 or D21:
# D18 (PWM0). Avoided: D0/D1 (HAT ID EEPROM), D2/D3 (I2C, 1.8 k pull-ups on the Pi), D14/D15
# (serial console). That leaves exactly the 21 pins used below.
PI_ROWS = ["D4", "D5", "D6", "D7", "D8", "D9", "D10", "D11", "D12"]
PI_COLS = ["D13", "D16", "D17", "D19", "D20", "D21", "D22", "D23", "D24"]
PI_LED_PIN = "D18"
PI_BUTTONS = {"ok": "D25", "undo": "D26", "hint": "D27"}
# BCM GPIO -> physical pin on the 40-pin header (for the wiring table).
PI_HEADER_PIN = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}

# --- The 15x15 board (issue 13) ------------------------------------------------------------------
# 225 cells need 15 rows + 15 columns = 30 matrix lines; the Pico has 26 GPIOs and the LED data
# and the three buttons take 4. Only one row is active at a time, so the rows come from two
# chained 74HC595 shift registers (16 outputs, 15 used) on 3 pins, and the 15 columns stay on
# consecutive GPIOs, read in one SIO GPIO_IN read per row as on the 9x9 board. 18 pins instead
# of 30; a row costs one clock and one latch pulse, so a full scan stays far below the 10 ms
# cycle (xobo.drivers.shiftrows). Why not I/O expanders (MCP23017 on I2C): two I2C transfers
# per row, about 0.1 ms each at 400 kHz, and an address/ACK protocol to get wrong; why not
# 74HC165s for the columns too: 15 shifted bits per row instead of one register read.
# The 74HC595s run at 3.3 V (the Pico's 3V3): no 5 V near a Pico pin, even through a reversed
# diode.
SIZE15 = 15
N_CELLS15 = SIZE15 * SIZE15
FILES15 = "abcdefghijklmno"
LED_COUNT15 = N_CELLS15 + 4 * SIZE15  # one edge LED per file / rank
CHAIN_OF_CELL15 = _serpentine(SIZE15)
EDGE_CHAIN15 = _edges(SIZE15)
PICO15_COLS = ["GP%d" % n for n in range(2, 17)]  # col c reads file c (pull-up, low = closed)
PICO15_SHIFT = {"data": "GP17", "clock": "GP18", "latch": "GP19"}  # U3 SER, SRCLK, RCLK
SHIFT_OUTPUTS15 = 16  # two 74HC595s; output r drives row r (rank r+1), output 15 is unused
PICO15_LED_PIN = "GP22"
PICO15_BUTTONS = dict(PICO_BUTTONS)

# --- Power -------------------------------------------------------------------------------------
# budget_ma is the whole board's budget, as the firmware's PowerLimiter reads it
# (firmware/xobo/drivers/leds.py): base_ma + idle LEDs + colour channels <= budget_ma. It is the
# supply less a 10 % margin for supply tolerance and estimate error. What the colour channels may
# draw is therefore supply - base - margin - idle, the figure the power budget table shows.
MARGIN_FRACTION = 0.10
SUPPLIES = {
    # Powered through the Pico's micro-USB (jumper JP1 at USB): a USB 2.0 port gives 500 mA.
    "usb": {"supply_ma": 500, "text": "USB 2.0 port through the Pico's micro-USB (500 mA)"},
    # 5 V 2 A wall adapter in the barrel jack J1 (jumper JP1 at DC).
    "adapter-5v2a": {"supply_ma": 2000, "text": "5 V 2 A adapter in the barrel jack"},
    # The 15x15 board only: 5 V 4 A adapter in its high-current barrel jack.
    "adapter-5v4a": {"supply_ma": 4000, "text": "5 V 4 A adapter in the 15x15 board's barrel "
                     "jack (the only supply of that board)"},
}
PICO_BASE_MA = 50  # Pico at 125 MHz (~25 mA) + level shifter + matrix pull-ups + headroom
PI_BASE_MA = 10  # the Pi has its own supply: only level shifter and matrix on the 5 V rail
PICO15_BASE_MA = 50  # as the Pico board; the 74HC595s and 15 pull-ups add about 1 mA


def budget_ma(supply_ma):
    """The whole board's current budget for a supply (supply less the margin)."""
    return supply_ma - int(round(supply_ma * MARGIN_FRACTION))


# --- The board definitions ---------------------------------------------------------------------
BOARDS = {
    "pico_gpio": {
        "description": "Raspberry Pi Pico, MicroPython, direct GPIO 9x9 reed matrix (one diode "
        "per switch), WS2812B chain from a1 serpentine + 4 edge strips, powered by USB (500 mA)",
        "platform": "micropython-rp2",
        "mcu": "pico",
        "supply": "usb",
    },
    "pico_gpio_adapter": {
        "description": "Same board as pico_gpio with jumper JP1 at DC: a 5 V 2 A adapter in the "
        "barrel jack powers the LEDs, so the firmware may light them brighter",
        "platform": "micropython-rp2",
        "mcu": "pico",
        "supply": "adapter-5v2a",
    },
    "pico_circuitpython": {
        "description": "Same board as pico_gpio running CircuitPython (board.GPn pin names), "
        "powered by USB (500 mA)",
        "platform": "circuitpython",
        "mcu": "pico",
        "supply": "usb",
    },
    "rpi_blinka": {
        "description": "Raspberry Pi with Adafruit Blinka wired to the board's Pico socket (see "
        "hardware/out/wiring_rpi_blinka.md); LED data on D18 (PWM); LEDs powered by a 5 V 2 A "
        "adapter, the Pi by its own supply",
        "platform": "blinka",
        "mcu": "rpi",
        "supply": "adapter-5v2a",
    },
    "pico_15x15": {
        "description": "Raspberry Pi Pico, MicroPython, 15x15 reed matrix (one diode per "
        "switch; rows from two chained 74HC595s, columns on GP2-GP16), WS2812B chain from a1 "
        "serpentine + 4 edge strips of 15, powered by a 5 V 4 A adapter",
        "platform": "micropython-rp2",
        "mcu": "pico15",
        "supply": "adapter-5v4a",
    },
}


def pins_for(mcu):
    if mcu == "pico":
        return PICO_ROWS, PICO_COLS, PICO_LED_PIN, PICO_BUTTONS, PICO_BASE_MA
    if mcu == "rpi":
        return PI_ROWS, PI_COLS, PI_LED_PIN, PI_BUTTONS, PI_BASE_MA
    raise ValueError("unknown mcu %r, expected 'pico' or 'rpi'" % mcu)


def board_definition(name):
    """The dict written to boards/<name>.json (the format the firmware codes against)."""
    if name not in BOARDS:
        raise KeyError("unknown board %r, known: %s" % (name, ", ".join(sorted(BOARDS))))
    spec = BOARDS[name]
    if spec["mcu"] == "pico15":
        return _board_definition15(name, spec)
    rows, cols, led_pin, buttons, base_ma = pins_for(spec["mcu"])
    supply_ma = SUPPLIES[spec["supply"]]["supply_ma"]
    return {
        "name": name,
        "description": spec["description"],
        "platform": spec["platform"],
        "matrix": {
            "rows": list(rows),
            "cols": list(cols),
            "row_active": 0,
            "col_pull": "up",
            "settle_us": 10,
            # key number row*9+col; row r = rank r+1, col c = file c, so the key is the cell.
            "cell_of_key": [r * SIZE + c for r in range(SIZE) for c in range(SIZE)],
        },
        "leds": {
            "pin": led_pin,
            "count": LED_COUNT,
            "order": "GRB",
            "cells": list(CHAIN_OF_CELL),
            "edges": {e: list(EDGE_CHAIN[e]) for e in ("N", "S", "E", "W")},
            "ma_per_channel": LED_MA_PER_CHANNEL,
            "idle_ma_per_led": LED_IDLE_MA,
        },
        "buttons": {b: {"pin": buttons[b], "active": 0} for b in ("ok", "undo", "hint")},
        "power": {
            "supply": spec["supply"],
            "supply_ma": supply_ma,
            "budget_ma": budget_ma(supply_ma),
            "base_ma": base_ma,
        },
    }

def _board_definition15(name, spec):
    """The 15x15 board: ``matrix.scanner`` "shift595" names the row driver, ``matrix.shift``
    its pins and size; the other keys keep the meaning they have on the 9x9 boards."""
    supply_ma = SUPPLIES[spec["supply"]]["supply_ma"]
    n = SIZE15
    return {
        "name": name,
        "description": spec["description"],
        "platform": spec["platform"],
        "matrix": {
            "scanner": "shift595",
            "shift": dict(PICO15_SHIFT, outputs=SHIFT_OUTPUTS15, rows=n),
            "cols": list(PICO15_COLS),
            "row_active": 0,
            "col_pull": "up",
            "settle_us": 10,
            # key number row*15+col; row r = rank r+1, col c = file c: the key is the cell.
            "cell_of_key": list(range(N_CELLS15)),
        },
        "leds": {
            "pin": PICO15_LED_PIN,
            "count": LED_COUNT15,
            "order": "GRB",
            "cells": list(CHAIN_OF_CELL15),
            "edges": {e: list(EDGE_CHAIN15[e]) for e in ("N", "S", "E", "W")},
            "ma_per_channel": LED_MA_PER_CHANNEL,
            "idle_ma_per_led": LED_IDLE_MA,
        },
        "buttons": {b: {"pin": PICO15_BUTTONS[b], "active": 0} for b in ("ok", "undo", "hint")},
        "power": {
            "supply": spec["supply"],
            "supply_ma": supply_ma,
            "budget_ma": budget_ma(supply_ma),
            "base_ma": PICO15_BASE_MA,
        },
    }


# --- Part choices ------------------------------------------------------------------------------
# key: category, value, footprint (KiCad 8 library name), manufacturer, example MPN, note.
# The schematic (hardware/schematic.py) instantiates these; the BOM counts them from the circuit.
PARTS = {
    "pico": ("MCU module", "Raspberry Pi Pico", "Module:RaspberryPi_Pico_Common_THT",
             "Raspberry Pi", "SC0915", "RP2040; socketed on 2x 1x20 female headers"),
    "reed": ("Reed switch", "reed SPST-NO 10-15 AT",
             "Resistor_THT:R_Axial_DIN0414_L11.9mm_D4.5mm_P5.08mm_Vertical",
             "Standex-Meder", "KSK-1A66-1015",
             "glass reed, 14 mm glass, pull-in 10-15 AT (15-20 AT: KSK-1A66-1520 if a hovering "
             "cube triggers); mounted upright under the cell centre, bend >= 3 mm from glass"),
    "diode": ("Diode", "1N4148", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
              "onsemi", "1N4148", "one per reed switch, cathode to the row line"),
    "led": ("LED", "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
            "Worldsemi", "WS2812B-V5", "one per cell + edge strips; GRB, 5 V"),
    "c_led": ("Capacitor", "100nF", "Capacitor_SMD:C_0603_1608Metric",
              "Samsung", "CL10B104KB8NNNC", "X7R 50 V; one at every LED and at U2"),
    "c_bulk": ("Capacitor", "1000uF 10V", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
               "Panasonic", "EEU-FR1A102", "electrolytic bulk on the 5 V LED rail"),
    "shifter": ("Level shifter", "SN74AHCT1G125", "Package_TO_SOT_SMD:SOT-23-5",
                "Texas Instruments", "SN74AHCT1G125DBVR",
                "3.3 V data to 5 V (VIH 2.0 V at VCC 5 V); OE tied low"),
    "r_data": ("Resistor", "330R", "Resistor_SMD:R_0603_1608Metric",
               "Yageo", "RC0603FR-07330RL", "series resistor on the LED data line"),
    "button": ("Push button", "SPST momentary", "Button_Switch_THT:SW_PUSH_12mm",
               "Omron", "B3F-4055", "12x12 mm tactile; ok, undo, hint"),
    "jack": ("Connector", "barrel jack 5.5x2.1",
             "Connector_BarrelJack:BarrelJack_CUI_PJ-002A_Horizontal",
             "CUI Devices", "PJ-002A", "5 V in, centre positive"),
    "jumper": ("Connector", "1x3 header + shunt",
               "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
               "Sullins", "PREC003SAAN-RC", "JP1 5 V rail source: 1-2 USB, 2-3 DC (shunt: "
               "Sullins QPC02SXGN-RC)"),
    "fuse_dc": ("Polyfuse", "PTC 2A hold", "Fuse:Fuse_1812_4532Metric",
                "Bourns", "MF-MSMF200-2", "DC input: hold 2.0 A, trip 4.0 A"),
    "fuse_usb": ("Polyfuse", "PTC 0.5A hold", "Fuse:Fuse_1812_4532Metric",
                 "Bourns", "MF-MSMF050-2", "USB VBUS to the LED rail: hold 0.5 A, trip 1.0 A"),
    "pfet": ("MOSFET", "P-MOSFET -30V -4A", "Package_TO_SOT_SMD:SOT-23",
             "Alpha & Omega", "AO3401A", "reverse-polarity protection, gate to GND"),
    "tvs": ("TVS diode", "SMAJ5.0A", "Diode_SMD:D_SMA",
            "Littelfuse", "SMAJ5.0A", "5 V standoff, 9.2 V clamp; after the fuse"),
    "schottky": ("Diode", "B5819W", "Diode_SMD:D_SOD-123",
                 "MCC", "B5819W-TP", "5 V rail into VSYS (Pico datasheet 4.5)"),
    # --- the 15x15 board only
    "sipo": ("Shift register", "74HC595", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm",
             "Texas Instruments", "SN74HC595DR",
             "matrix rows: two chained, VCC 3.3 V from the Pico; one active-low output at a "
             "time, cathodes of the row's diodes"),
    "c_logic": ("Capacitor", "100nF", "Capacitor_SMD:C_0603_1608Metric",
                "Samsung", "CL10B104KB8NNNC", "X7R 50 V; at each 74HC595 (3V3 to GND)"),
    "jack_hc": ("Connector", "barrel jack 5.5x2.1, high current",
                "Connector_BarrelJack:BarrelJack_CUI_PJ-063AH_Horizontal",
                "CUI Devices", "PJ-063AH", "5 V in, centre positive; rated above the 4 A "
                "adapter"),
    "fuse_dc4": ("Polyfuse", "PTC 4A hold", "Fuse:Fuse_Bourns_MF-RHT400",
                 "Bourns", "MF-RHT400", "DC input of the 15x15 board: hold 4.0 A, trip 7.5 A, "
                 "16 V, radial 5.1 mm"),
    "pfet_hc": ("MOSFET", "P-MOSFET -30V -11A", "Package_SO:SOIC-8_3.9x4.9mm_P1.27mm",
                "Alpha & Omega", "AO4407A", "reverse-polarity protection at 4 A (pins 1-3 "
                "source, 4 gate, 5-8 drain), gate to GND"),
}

# Parts that are not in the schematic: counted here, listed in the BOM after the circuit parts.
# (key, category, quantity, value, manufacturer, example MPN, note)
# The pieces (every game's, with their magnets) are counted by hardware/pieces.py from the games
# and listed after these; the layers above the PCB, as the magnetic model of pieces.py reads them:
CELL_PITCH_MM = 40
CUBE_MM = 18
GLASS_MM = 3  # the 9x9 board's float glass
GLASS15_MM = 4  # the 15x15 board's (a 640 mm pane sags less)
DIFFUSER_MM = 2  # opal acrylic under the glass
AIR_GAP_MM = 0.5  # between the diffuser and the top of the upright reed
MAGNET_RECESS_MM = 0.5  # how deep a magnet may sit in its piece's bottom face
MECHANICAL = [
    ("pico_header", "Connector", 2, "1x20 female header 2.54 mm", "Sullins",
     "PPTC201LFBN-RC", "socket for the Pico"),
    ("surface", "Surface", 1, "%d mm float glass %d x %d mm" % (
        GLASS_MM, (SIZE + 1) * CELL_PITCH_MM, (SIZE + 1) * CELL_PITCH_MM),
     "glazier", "%d mm float glass" % GLASS_MM, "arrissed edges; grid printed or etched"),
    ("diffuser", "Diffuser", 1, "2 mm opal/frosted acrylic, same size as the glass", "generic",
     "PMMA opal 2 mm", "or tracing paper under the glass"),
    ("baffle", "Light baffle", 1, "egg-crate grid of 9x9 cells, %d mm pitch, 15 mm high"
     % CELL_PITCH_MM, "generic", "3 mm MDF or 3D print", "stops light bleeding to neighbours"),
    ("adapter", "Power supply", 1, "5 V 2 A adapter, 5.5x2.1 mm plug, centre positive",
     "Mean Well", "GST12E05-P1J", "only for the pico_gpio_adapter board definition"),
    ("usb_cable", "Cable", 1, "micro-USB data cable", "generic", "USB-A to micro-B",
     "serial link and USB power"),
]

# The 15x15 board's mechanical parts (same cells and pieces as the 9x9 board).
BOARD15_MM = (SIZE15 + 1) * CELL_PITCH_MM
MECHANICAL15 = [
    ("pico_header", "Connector", 2, "1x20 female header 2.54 mm", "Sullins",
     "PPTC201LFBN-RC", "socket for the Pico"),
    ("surface", "Surface", 1, "%d mm float glass %d x %d mm" % (
        GLASS15_MM, BOARD15_MM, BOARD15_MM),
     "glazier", "%d mm float glass" % GLASS15_MM,
     "arrissed edges; 4 mm: a 640 mm pane sags less than 3 mm glass; supported every 200 mm"),
    ("diffuser", "Diffuser", 1, "2 mm opal/frosted acrylic, same size as the glass", "generic",
     "PMMA opal 2 mm", "or tracing paper under the glass"),
    ("baffle", "Light baffle", 1, "egg-crate grid of 15x15 cells, %d mm pitch, 15 mm high"
     % CELL_PITCH_MM, "generic", "3 mm MDF or 3D print", "stops light bleeding to neighbours"),
    ("adapter", "Power supply", 1, "5 V 4 A adapter, 5.5x2.1 mm plug, centre positive",
     "Mean Well", "GST25E05-P1J", "the board's only supply (pico_15x15)"),
    ("usb_cable", "Cable", 1, "micro-USB data cable", "generic", "USB-A to micro-B",
     "serial link (the Pico runs from the adapter)"),
]


# --- The cell tile (hardware/pcb.py) and what a board costs ------------------------------------
# Unit prices in EUR assumed for the cost estimate in hardware/out/pcb_tile.md: typical
# distributor prices at 100+ pieces and a low-cost board house's price for a 120 x 120 mm
# two-layer board in tens (not quotes: check them when ordering). Keys are BOM items.
UNIT_PRICE_EUR = {
    "reed": 0.90,  # Standex-Meder KSK-1A66-1015
    "diode": 0.03,  # 1N4148, DO-35
    "led": 0.12,  # WS2812B-V5
    "c_led": 0.01,  # 100 nF 0603 X7R
    "tile_pcb": 2.00,  # 120 x 120 mm, 2 layers, 1.6 mm FR-4, HASL, green mask
    "strip_pcb": 0.50,  # the edge strip, 120 x 14 mm, the same process
    "header_pin": 0.02,  # one pin of a 40-pin breakaway header (a pin through two boards)
}
