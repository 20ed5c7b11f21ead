"""Whole games of the new games played to the end on the simulator's page (issues 11-13: "Done
when ... played ... in the simulator"), through the page's own controls only: cells clicked
(put), right-clicked (lift) and shift-clicked (take off), the board's buttons, the serial
console, New game, the "Play against the computer" panel and "Play ... for me" (the move the
board waits for, or the hint it shows, played with the pieces). Along the way the test reads
what a player sees (whose turn, the pieces' lights, the score, the result in words) and checks
that the firmware's state agrees.

The test reads the firmware (``page.sim``) only to choose what to click (an empty cell, the
hand actions of a move) and to check the page against it."""


import pytest

from sim.simkit import with_board_layer

pytestmark = pytest.mark.browser


def cell(name):
    return '[data-cell="%s"]' % name


def choose_game(pg, name):
    pg.wait_for_selector('[data-role="game"] option[value="%s"]' % name, state="attached")
    pg.select_option('[data-role="game"]', name)
    pg.wait_for_selector('.grid[data-game="%s"]' % name, timeout=30000)
    pg.sim.wait(lambda s: s["state"]["game"] == name, what="game " + name)


def console(pg, line):
    """Type a protocol line into the page's serial console; returns the board's answer."""
    pg.fill('[data-role="console-input"]', line)
    pg.press('[data-role="console-input"]', "Enter")
    pg.wait_for_function(
        "l => document.querySelector('[data-role=\"console-output\"]').textContent"
        ".startsWith('> ' + l + '\\n')", arg=line, timeout=30000)
    out = pg.inner_text('[data-role="console-output"]').split("\n")[1:]
    assert out and out[0].startswith("ok"), (line, out)
    return out


def new_game(pg):
    """The page's New game button (it asks first: the pieces are swept off)."""
    ply = pg.sim.state()["state"]["ply"]
    pg.once("dialog", lambda d: d.accept())
    pg.click('[data-role="new"]')
    if ply:
        pg.sim.wait(lambda s: s["state"]["ply"] == 0, what="the new game")


def computer_plays(pg, opponent, level):
    pg.select_option('[data-role="level"]', level)
    pg.sim.wait(lambda s: s["state"]["settings"]["level"] == level, what="level " + level)
    pg.click('[data-opponent="%s"]' % opponent)
    pg.wait_for_selector('[data-opponent="%s"][aria-checked="true"]' % opponent, timeout=30000)
    assert pg.sim.state()["state"]["settings"]["opponent"] == opponent


def board_name(sim, g):
    """The board cell (its name on the page) of game cell ``g``."""
    app = sim.backend.board.app
    return app.topo.cell_name(app.place.to_board[g])


def wait_ply(sim, ply, timeout=30.0):
    try:
        return sim.wait(lambda s: s["state"]["ply"] >= ply or s["state"]["result"] != "*",
                        timeout=timeout, what="ply %d" % ply)
    except AssertionError:
        snap = sim.state()
        st = snap["state"]
        raise AssertionError("ply %d did not come: %s" % (ply, {
            k: st.get(k) for k in ("position", "ply", "inference", "expect", "fill", "clear",
                                   "heights")} | {"say": snap["say"], "hint": snap["hint"],
                                                  "hand": snap["hand"],
                                                  "events": sim.backend.events_after(0)[-8:]}
        )) from None


def wait_turn(pg, player):
    """The page shows ``player`` to move: the turn line and the players' list."""
    pg.wait_for_selector('[data-role="players"] li[data-player="%s"].to-move' % player,
                         timeout=30000)
    words = player[0].upper() + player[1:] + " to move"
    assert pg.inner_text('[data-role="turn"]') == words


def wait_led(pg, name, rgb, timeout=10000):
    pg.wait_for_function(
        "([c, v]) => document.querySelector('[data-cell=\"' + c + '\"]').dataset.led === v",
        arg=[name, rgb], timeout=timeout)


def press(pg, button):
    """A short press of a board button on the page."""
    pg.click('[data-button="%s"]' % button)


def offered(pg, source):
    """The move "Play ... for me" offers, once it offers the move the board waits for
    (``expect``) or the hint it shows (``hint``)."""
    sel = '[data-role="play"][data-from="%s"]:not([hidden])' % source
    # the button's move and its words in one look (the page may redraw between two reads
    # under load: its words once lagged its move by one update)
    handle = pg.wait_for_function(
        "sel => { const e = document.querySelector(sel);"
        " return e && e.innerText === 'Play ' + e.dataset.move + ' for me' && e.dataset.move; }",
        arg=sel, timeout=30000)
    return handle.json_value()


def play_for_me(pg, source):
    """Click "Play ... for me" once it offers a move (``offered``); returns the move."""
    move = offered(pg, source)
    pg.click('[data-role="play"][data-from="%s"]:not([hidden])' % source)
    return move


def hands_of(sim, m):
    """A move's hand actions on the board: [("put" | "lift" | "take", board cell name)], one
    "take" a piece (the game's host module, xobo.hostkit)."""
    with sim.backend.lock:
        hands = sim.backend.hands(m)
    out = []
    for what, g, n in hands:
        out += [(what, board_name(sim, g))] * (n if what == "take" else 1)
    return out


def do_hands(pg, hands):
    """The hand actions done on the page: click (put, from the hand when it holds pieces),
    right-click (lift into the hand), shift-click (take every piece of the cell off; a cell
    that keeps some is lifted and they are put back), then "Put back" for what the hand
    still holds."""
    counts = {}
    takes = {}
    for what, name in hands:
        if what == "take":
            takes[name] = takes.get(name, 0) + 1
            continue
        if what == "put":
            pg.click(cell(name))
        else:
            pg.click(cell(name), button="right")
    for name, n in takes.items():
        have = int(pg.sim.state()["counts"][pg.sim.backend.board_cell(name)])
        counts[name] = have
        if n >= have:
            pg.click(cell(name), modifiers=["Shift"])
        else:
            pg.click(cell(name), button="right")
            for _ in range(have - n):
                pg.click(cell(name))
    if pg.get_attribute('[data-role="hand"]', "data-count") != "0" or takes:
        pg.click('[data-role="drop"]')


# ---------------------------------------------------------------- X


@pytest.mark.slow
@pytest.mark.long
def test_X_a_whole_three_player_game_on_a_5x5_red_by_hand_yellow_and_green_by_the_computer(
        open_page, tmp_path):
    _x_game(open_page, tmp_path)


def test_X_the_opening_of_a_three_player_game_by_hand_hint_and_computer_on_the_page(
        open_page, tmp_path):
    # the whole game's first 8 plies (make test; the whole game in make test-long): every
    # way a move is made on the page (a click, a hint played, the computer's by click and by
    # "Play ... for me") and each piece lit in its owner's colour
    _x_game(open_page, tmp_path, plies=8)


def _x_game(open_page, tmp_path, plies=None):
    """X on the 5 x 5 rhombus, Red by hand, to the end (or ``plies`` plies)."""
    pg = open_page()
    sim = pg.sim
    choose_game(pg, "x")
    # the size has no control of its own: the page's serial console sets it (XB2: 4-9), the
    # page's New game starts the 5 x 5 game
    console(pg, "set size 5")
    console(pg, "set settle 200")
    new_game(pg)
    # the size is the next new game's (XB2 as a setting): the page draws the 5 x 5 rhombus once
    # the new game has started
    pg.wait_for_function("document.querySelectorAll('.cell.hex').length === 25")
    assert pg.locator(".cell.hex").count() == 25
    # the computer plays Yellow and Green (a three-player game's pair button), level greedy
    computer_plays(pg, "yellow+green", "greedy")
    colours = sim.state()["colours"]
    names = ("red", "yellow", "green")
    app = sim.backend.board.app
    corners = {0, 4, 20, 24}  # corner cells show the corner's owner (dim while provisional)
    red_moves = 0
    max_plies = 25  # a 5 x 5 rhombus is full after 25 moves: the game ends (XE1)
    while True:
        st = sim.state()["state"]
        if st["result"] != "*":
            break
        if st["ply"] == plies:
            assert red_moves == 3, red_moves  # two by hand, one by the hint
            return
        assert st["ply"] < max_plies, "the game did not end: %s" % st["position"]
        side, ply = st["side"], st["ply"]
        wait_turn(pg, side)
        if side == "red":
            red_moves += 1
            if red_moves % 3 == 0:
                # the hint's move, played with the pieces by "Play ... for me"
                press(pg, "hint")
                move = offered(pg, "hint")
                g = app.pos.parse_move(move)  # (read before it is played: then it is taken)
                play_for_me(pg, "hint")
            else:
                # by hand: a click puts a red piece on the empty hexagon nearest the centre
                empty = [g for g in range(25) if not app.pos.owner[g]]
                g = min(empty, key=lambda g: (abs(g % 5 - 2) + abs(g // 5 - 2), g))
                pg.click(cell(board_name(sim, g)))
        else:
            # the computer's move is lit and said; its pieces are put by the player: every
            # other one by hand on the cell it names, the others by "Play ... for me"
            sel = '[data-role="play"][data-from="expect"]:not([hidden])'
            pg.wait_for_selector(sel, timeout=30000)
            move = pg.get_attribute(sel, "data-move")
            assert ("the computer plays %s" % move) in pg.inner_text('[data-role="inference"]')
            g = app.pos.parse_move(move)
            if ply % 2:
                pg.click(cell(board_name(sim, g)))
            else:
                play_for_me(pg, "expect")
        wait_ply(sim, ply + 1)
        owner = names.index(side)
        assert app.pos.owner[g] == owner + 1
        if g not in corners and sim.state()["state"]["result"] == "*":
            wait_led(pg, board_name(sim, g), colours[owner])  # the piece in its owner's light
    # the end: every hexagon is filled (XE1), the result names the winner and the score
    st = sim.state()["state"]
    assert st["ply"] == 25 and red_moves >= 8
    winner, score = st["result_text"].split()
    assert winner == st["result"] in names
    score = [int(v) for v in score.split("-")]
    assert sorted(score) in ([0, 0, 4], [0, 1, 3], [1, 1, 2], [0, 2, 2])  # XE2
    words = ("%s wins: Red %d · Yellow %d · Green %d corners: the highest score nobody else "
             "has wins (XE2)" % ((winner.capitalize(),) + tuple(score)))
    pg.wait_for_selector('[data-role="result"][data-result="%s"]' % winner, timeout=30000)
    assert pg.inner_text('[data-role="result"]') == words
    assert pg.inner_text('[data-role="turn"]') == "Game over"
    pg.wait_for_selector('[data-role="players"] li[data-player="%s"].winner' % winner)
    assert pg.locator('[data-role="play"]').is_hidden()
    pg.screenshot(path=str(tmp_path / "x-whole-game.png"))


# ---------------------------------------------------------------- Chain Reaction


@pytest.mark.slow
@pytest.mark.long
def test_CE1_a_whole_chain_reaction_game_to_12_light_by_hand_and_hints_dark_by_the_computer(
        open_page, tmp_path):
    _chain_reaction_game(open_page, tmp_path)


def test_the_opening_of_a_chain_reaction_game_by_hand_hints_and_computer_on_the_page(
        open_page, tmp_path):
    # the whole game's first 8 segments (make test; the whole game in make test-long): the
    # score the page says after each, hints played, a segment by hand, the computer's
    _chain_reaction_game(open_page, tmp_path, plies=8)


def _chain_reaction_game(open_page, tmp_path, plies=None):
    """Chain Reaction to 12, Light by hand and hints, to the end (or ``plies`` segments)."""
    pg = open_page()
    sim = pg.sim
    choose_game(pg, "chain-reaction")
    # the target has no control of its own: the serial console sets it (CB5: 12-24)
    console(pg, "set target 12")
    console(pg, "set settle 200")
    new_game(pg)
    # the target is the next new game's: the score says it once the new game has started
    want = "Score: Light 0 · Dark 0 (target 12)"
    pg.wait_for_function(
        "want => (document.querySelector('[data-role=\"score\"]') || {}).innerText === want",
        arg=want)
    assert pg.inner_text('[data-role="score"]') == want
    computer_plays(pg, "dark", "greedy")
    light, dark = sim.state()["colours"]
    app = sim.backend.board.app
    by = {"hand": 0, "hint": 0, "computer": 0}
    towers = False
    max_plies = 400  # a game to 12 points takes about 90 segments: it must end long before
    while True:
        snap = sim.state()
        st = snap["state"]
        if st["result"] != "*":
            break
        if st["ply"] == plies:
            assert by["hand"] >= 1 and by["hint"] >= 1 and by["computer"] >= 1, by
            return
        assert st["ply"] < max_plies, "the game did not end: %s" % st["position"]
        side, ply = st["side"], st["ply"]
        wait_turn(pg, side)
        if side == "light":
            # two segments of three by the hint, one by hand: a game of 59 segments, 13 of
            # them by hand (49 hand actions, not 103 in 24 segments as when 6 of 7 were by
            # hand: the test took 55-68 s), towers, hints and the computer's as in any game
            if ply % 3 < 2:
                # a hint, played with the pieces by "Play ... for me"
                press(pg, "hint")
                play_for_me(pg, "hint")
                by["hint"] += 1
            else:
                # by hand: the computer's own first choice at level random, done with clicks
                from xobo.games.chain_reaction import ai

                m = ai.choose_move(app.pos.clone(), level="random", seed=ply + 7)
                do_hands(pg, hands_of(sim, m))
                by["hand"] += 1
        else:
            # the computer's segment is lit and waits for the pieces: "Play ... for me"
            play_for_me(pg, "expect")
            by["computer"] += 1
        wait_ply(sim, ply + 1)
        snap = sim.state()
        st = snap["state"]
        if st["result"] == "*":
            score = st["score"]
            pg.wait_for_function(
                "t => document.querySelector('[data-role=\"score\"]').textContent === t",
                arg="Score: Light %d · Dark %d (target 12)" % (score["light"], score["dark"]),
                timeout=30000)
        # a tower (a piece on a piece of the other colour, CB4) is drawn in the two colours
        two = [c for c, ks in snap["draw"]["pieces"].items() if len(set(ks)) == 2]
        if two and not towers:
            name = two[0]
            pg.wait_for_selector(cell(name) + '[data-count="2"] .cube.piece:nth-child(2)',
                                 timeout=30000)
            drawn = pg.eval_on_selector_all(
                cell(name) + " .cube.piece",
                "els => els.map(e => e.style.getPropertyValue('--piece'))")
            rgb = {"light": "#" + light, "dark": "#" + dark}
            assert drawn == [rgb[k] for k in snap["draw"]["pieces"][name]]
            pg.screenshot(path=str(tmp_path / "cr-tower.png"))
            towers = True
    st = sim.state()["state"]
    assert by["hand"] >= 3 and by["hint"] >= 1 and by["computer"] >= 3, by
    assert towers, "no tower of two colours was seen in the whole game"
    winner, how = st["result_text"].split()
    assert winner == st["result"] in ("light", "dark")
    score = st["score"]
    assert score[winner] >= 12 or how == "blockade"
    how = {"points": "points: reached the target with 2 points more than the other (CE2)",
           "blockade": "blockade: held the 7 squares before the goal line for a whole turn "
                       "(CE3)"}[how]
    words = "%s wins (%s): Light %d · Dark %d" % (winner.capitalize(), how, score["light"],
                                                   score["dark"])
    pg.wait_for_selector('[data-role="result"][data-result="%s"]' % winner, timeout=30000)
    assert pg.inner_text('[data-role="result"]') == words
    assert pg.inner_text('[data-role="turn"]') == "Game over"
    pg.wait_for_selector('[data-role="players"] li[data-player="%s"].winner' % winner)
    assert pg.locator('[data-role="score"]').is_hidden()  # the result line says it now
    pg.screenshot(path=str(tmp_path / "cr-whole-game.png"))


# ---------------------------------------------------------------- Brochs


@pytest.mark.slow
@pytest.mark.long
def test_BE_a_whole_brochs_game_on_the_15x15_board_black_by_the_computer_white_by_hand(
        open_page, monkeypatch, tmp_path):
    _brochs_game(open_page, monkeypatch, tmp_path)


def test_the_opening_of_a_brochs_game_on_the_15x15_board_by_hand_hint_and_computer(
        open_page, monkeypatch, tmp_path):
    # the whole game's first 8 plies (make test; the whole game in make test-long): White's
    # men moved with clicks and by a hint, Black's moves put by hand and by "Play ... for me"
    _brochs_game(open_page, monkeypatch, tmp_path, plies=8)


def _brochs_game(open_page, monkeypatch, tmp_path, plies=None):
    """Black (the computer, level greedy) against White by hand (its men moved with clicks:
    lifted, put, the captured pieces taken off), a hint played for White by "Play ... for
    me". The default donjons (d4 l4 d12 l12). To the end, or ``plies`` plies. Until
    Brochs's board layer is installed the runtime's default layers stand in for it (the
    pieces' own colours are drawn by the page; the owners' lights are the layer's, checked
    only with it)."""
    from xobo.games.brochs import ai, rules

    stand_in = with_board_layer(monkeypatch, "brochs")
    pg = open_page("pico_15x15")
    sim = pg.sim
    choose_game(pg, "brochs")
    console(pg, "set settle 200")
    assert pg.locator(".cell:not(.inactive)").count() == 225
    computer_plays(pg, "black", "greedy")
    app = sim.backend.board.app
    by = {"hand": 0, "hint": 0, "computer": 0, "computer by hand": 0}
    max_plies = 600  # greedy Black against these White moves ends well before this
    while True:
        st = sim.state()["state"]
        if st["result"] != "*":
            break
        if st["ply"] == plies:
            assert by["hand"] >= 2 and by["hint"] == 1 and by["computer"] >= 1 \
                and by["computer by hand"] >= 1, by
            return
        assert st["ply"] < max_plies, "the game did not end: %s" % st["position"]
        side, ply = st["side"], st["ply"]
        wait_turn(pg, side)
        if side == "white":
            if by["hand"] == 2 and not by["hint"]:
                press(pg, "hint")
                play_for_me(pg, "hint")
                by["hint"] += 1
            else:
                # (seeded ply + 8: a short game, 37 plies, not 87, every move of it done with
                # pieces, as in a long one; ply + 1 offers submission, a button's move)
                m = ai.choose_move(app.pos.clone(), level="random", seed=ply + 8)
                do_hands(pg, hands_of(sim, m))
                by["hand"] += 1
        else:
            # the computer's move is lit and waits for the pieces: put by "Play ... for me",
            # every third one by hand where the board shows it
            sel = '[data-role="play"][data-from="expect"]:not([hidden])'
            pg.wait_for_selector(sel, timeout=10000)
            if ply % 3 == 1:
                do_hands(pg, hands_of(sim, app.pending))
                by["computer by hand"] += 1
            else:
                play_for_me(pg, "expect")
                by["computer"] += 1
        wait_ply(sim, ply + 1)
        # the men and Black's pieces are drawn in their own colours, as many as the rules say
        snap = sim.state()
        whites = sum(1 for ks in snap["draw"]["pieces"].values() if ks == ["white"])
        assert whites == sum(1 for g in range(225) if app.pos.piece(g) == rules.WHITE)
        if not stand_in and snap["state"]["result"] == "*":
            # every piece lit (its owner; a blinking one is seen in its lit phase)
            pg.wait_for_function(
                "() => [...document.querySelectorAll('.cell[data-pieces]')]"
                ".every(e => e.dataset.led !== '000000')", timeout=30000)
    st = sim.state()["state"]
    assert by["hand"] >= 3 and by["computer"] >= 3 and by["computer by hand"] >= 1, by
    winner = st["result"]
    assert winner in ("black", "white"), st["result"]
    words = st["result_text"].split()
    assert words[0] == winner
    # the end in words, with the rules it cites (BE1, BE3)
    how = {"resigned": "the other side resigned or accepted submission",
           "master captured": "Black's master was captured",
           "last white piece captured": "White's last piece was captured",
           "submission countdown": "the submission countdown ran out: the side with more "
                                   "donjons wins",
           "four donjons": "all four donjons are Black's"}[" ".join(words[1:])]
    want = winner.capitalize() + " wins: " + how + " (BE1, BE3)"
    pg.wait_for_selector('[data-role="result"][data-result="%s"]' % winner, timeout=30000)
    assert pg.inner_text('[data-role="result"]') == want
    assert pg.inner_text('[data-role="turn"]') == "Game over"
    pg.wait_for_selector('[data-role="players"] li[data-player="%s"].winner' % winner)
    pg.screenshot(path=str(tmp_path / "brochs-whole-game.png"))
