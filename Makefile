# XoBo board: every target sets up what it needs first (make setup is idempotent).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.setup-stamp
BOARD   ?= pico_gpio
PORT    ?=

.PHONY: setup test test-long test-fast soak bench sim flash build selftest lint doctor clean browser kicad \
	hardware pcb boards order pico-check cafe-bench cafe-bench-burner firmware mosquitto remote-bench remote-bench-burner events-bench events-evening \
	figures figures-all

setup: $(STAMP)

# --no-compile: Python compiles a module when it is first imported (pip compiling every file
# of every dependency was 23 of the 41 s of a fresh clone's setup)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q --no-compile -e '.[test]'
	touch $(STAMP)

# Chromium for the browser tests comes from Debian (Playwright must not download its own).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    for try in 1 2; do \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && break; \
	      sleep 5; \
	    done; \
	  fi; \
	  command -v chromium >/dev/null 2>&1 || \
	    echo "WARNING: chromium is not installed (apt-get install chromium): the browser tests will be skipped"; }

# KiCad's pcbnew (Debian's python3 module) for the cell tile's design-rule check (hardware/pcb.py).
kicad:
	@/usr/bin/python3 -c "import pcbnew" >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    for try in 1 2; do \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	        --no-install-recommends kicad >/dev/null && break; \
	      sleep 5; \
	    done; \
	  fi; \
	  /usr/bin/python3 -c "import pcbnew" >/dev/null 2>&1 || \
	    echo "WARNING: KiCad's pcbnew is not installed (apt-get install kicad): the PCB's design-rule check will be skipped"; }

# Debian's MQTT broker for the tests of matches between cafés (tests/cafe/remotekit.py starts
# one on loopback per test: docs/remote.md).
mosquitto:
	@test -x /usr/sbin/mosquitto || { \
	  if [ "$$(id -u)" = 0 ]; then \
	    for try in 1 2; do \
	      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	        --no-install-recommends mosquitto >/dev/null && break; \
	      sleep 5; \
	    done; \
	  fi; \
	  test -x /usr/sbin/mosquitto || \
	    echo "WARNING: mosquitto is not installed (apt-get install mosquitto): the tests of matches across cafés will be skipped"; }

# the suite but its whole games and courses in the browser (marked long: each has a shorter
# test of the same path here); make test-long runs those, CI runs both (.ci/run)
test: setup browser kicad mosquitto
	$(BIN)/python -m pytest -m "not long"

test-long: setup browser kicad mosquitto
	$(BIN)/python -m pytest -m long

test-fast: setup
	$(BIN)/python -m pytest -m "not browser and not slow and not long"

# the long soaks (tests/device): 10,000 moves of XoBo, 2,000 of every game on both boards, in
# the Pico's heap on the unix port, the conformance suite's every random game on both runtimes,
# the fuzzers', XoBo's properties' and the games' limits' every example and two whole games of
# XoBo's strong level against random (make test runs them shorter: half of those games under
# CPython, a quarter under MicroPython, half of the examples (a quarter of the limits'), one
# game)
soak: setup
	XOBO_SOAK=full $(BIN)/python -m pytest tests/device/test_soak.py tests/device/test_soak_games.py \
	  tests/games/test_conformance.py tests/boardapp/test_protocol_fuzz.py \
	  tests/boardapp/test_switch_fuzz.py tests/test_micropython_suite.py \
	  tests/games/xobo/test_properties.py tests/games/xobo/test_ai_host.py \
	  tests/boardapp/test_limits.py \
	  -k "soak or conformance or fuzz or test_properties or strong_beats_random or no_path"

# each benchmark writes its results to bench-results/BENCH/ (latest.json: the figures the docs
# quote, docs/figures.md; xobo_host.bench.results)
bench: setup mosquitto
	$(BIN)/python -m xobo_host.bench.run
	$(BIN)/python -m xobo_host.cafe.remotebench --matches 100 --restarts 10

# docs/figures.md from the benchmarks' latest results, and every quote of a figure in the docs
# rewritten from them (xobo_host.bench.figures; tests/test_doc_figures.py checks both)
figures: setup
	$(BIN)/python -m xobo_host.bench.figures

# every benchmark but the device check, then the figures page (about 40 minutes on the
# 2-core machine); with UF2= (the XoBo image, make firmware) and BOOTROM=, the device check
# of both boards too. Run it on a quiet machine: the results record the load.
figures-all: bench cafe-bench
	$(if $(UF2),-$(MAKE) pico-check UF2="$(UF2)" BOOTROM="$(BOOTROM)" BOARD=pico_gpio)
	$(if $(UF2),-$(MAKE) pico-check UF2="$(UF2)" BOOTROM="$(BOOTROM)" BOARD=pico_15x15)
	$(MAKE) figures

# 32 stand-in boards playing at once on one xobo cafe host (about a minute; docs/cafe.md)
cafe-bench: setup
	$(BIN)/python -m xobo_host.cafe.bench --boards 32 --moves 1000

# the same with a CPU burner on one core all along (results: bench-results/cafe-burner)
cafe-bench-burner: setup
	$(BIN)/python -m xobo_host.cafe.bench --boards 32 --moves 1000 --burner

# an event's Swiss pairings of 200 players, 9 rounds, each round timed and checked
# (docs/events.md): its figures in bench-results/events/latest.json (docs/figures.md)
events-bench: setup
	$(BIN)/python -m xobo_host.cafe.events.bench --players 200 --rounds 9

# a whole stand-in evening: 24 players, 5 rounds of XoBo on 12 boards (docs/events.md)
events-evening: setup
	mkdir -p out
	$(BIN)/python -m xobo_host.cafe.events.evening --players 24 --rounds 5 --boards 12 --out out/events-evening.json

# 100 matches between two café hosts through one local broker, 10 broker restarts
# (docs/remote.md)
remote-bench: setup mosquitto
	$(BIN)/python -m xobo_host.cafe.remotebench --matches 100 --restarts 10

# the same with a CPU burner on one core all along (results: bench-results/remote-burner)
remote-bench-burner: setup mosquitto
	$(BIN)/python -m xobo_host.cafe.remotebench --matches 100 --restarts 10 --burner

sim: setup
	$(BIN)/xobo sim

flash: setup
	$(BIN)/xobo flash --board $(BOARD) $(if $(PORT),--port $(PORT))

# compile the firmware to .mpy (what make flash copies) without a Pico
build: setup
	$(BIN)/xobo flash --board $(BOARD) --build-only

# the LED and switch self-test of a board on USB (PORT=/dev/ttyACM0 to choose one)
selftest: setup
	$(BIN)/xobo selftest $(if $(PORT),--port $(PORT))

# the firmware on an emulated Pico (rp2040js from npm): boot, heap, cycle and AI times
# (docs/device-check.md). UF2= the MicroPython RPI_PICO .uf2, BOOTROM= the RP2040 bootrom.
pico-check: setup
	XOBO_PICO_UF2="$(UF2)" XOBO_PICO_BOOTROM="$(BOOTROM)" $(BIN)/xobo pico-check --board $(BOARD)

# the firmware image: MicroPython v1.28.0 for the Pico with the board frozen in, built from a
# MicroPython source tree outside this repository into build/firmware/xobo-$(BOARD).uf2
# (docs/deploy.md). MICROPYTHON= the tree (with the rp2 port's submodules).
MICROPYTHON ?=
firmware: setup
	@test -n "$(MICROPYTHON)" || { echo "make firmware needs MICROPYTHON=path/to/micropython (a v1.28.0 source tree, docs/deploy.md)"; exit 2; }
	$(BIN)/python -m xobo_host.device.firmware --micropython "$(MICROPYTHON)" --board $(BOARD)

doctor: setup
	$(BIN)/xobo doctor

# regenerate boards/*.json, the netlist, BOM, wiring tables and power budget from hardware/design.py
hardware: setup
	$(BIN)/python -m hardware.generate

# the cell tile's circuit board: build/pcb/ (board, DRC report, Gerbers, drill) and the layer
# pictures in hardware/out/ (KiCad's pcbnew runs under Debian's python3)
pcb: kicad
	/usr/bin/python3 -m hardware.pcb --pictures

# the boards round the tiles (links, rails, each size's controller) from the netlists with
# pcbnew, routed and design-rule checked: hardware/out/pcb/*.kicad_pcb (committed; the DRC
# reports in build/pcb/<design>/), then the whole board's copper against its netlist
boards: kicad
	/usr/bin/python3 -m hardware.boards
	/usr/bin/python3 -m hardware.connectivity 9 15

# everything a café orders for one board: build/order/$(BOARD)/ and build/order/$(BOARD).zip
# (the circuit boards' Gerbers, drill, BOM and placement; the parts, the pieces, the DXF cuts)
order: setup kicad
	/usr/bin/python3 -m hardware.order pcbs $(BOARD)
	$(BIN)/python -m hardware.order $(BOARD)

lint: setup
	$(BIN)/ruff check firmware host_tools tests hardware

clean:
	rm -rf $(VENV) build dist out *.egg-info
