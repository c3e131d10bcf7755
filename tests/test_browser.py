"""The web board in a real headless browser (Debian's Chromium driven by Selenium): a short whole
game of each of the nine games played by clicks on the page, the engine answering, analysis,
take-backs, the record, errors shown on the page.

Skipped, with the reason, where Selenium, Chromium or its driver is not installed (`.ci/run`
installs them: the browser comes from the system's packages, never downloaded at run time)."""

import shutil
import time

import pytest

import engine

pytest.importorskip("bottle", reason="the web board needs Bottle (pip install '.[web]')")
webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests need Selenium")
from selenium.common.exceptions import (  # noqa: E402
    StaleElementReferenceException, TimeoutException, WebDriverException)
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from engine import serve  # noqa: E402
from test_serve import SHORT_GAMES  # noqa: E402

BROWSER = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
DRIVER = shutil.which("chromedriver")
if BROWSER is None or DRIVER is None:
    pytest.skip("no Chromium and chromedriver installed (Debian: apt-get install chromium "
                "chromium-driver)", allow_module_level=True)

WAIT = 60          # seconds: generous, a loaded machine is slow but never this slow
POLL_S = 0.4       # the page asks for its game's state this often (board.js POLL_MS)


@pytest.fixture(scope="module")
def site():
    httpd, lobby, url = serve.start(port=0, hash_mb=4)
    yield url
    httpd.shutdown()
    lobby.close_all()


@pytest.fixture(scope="module")
def browser():
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1300,900", "--disable-gpu"):
        options.add_argument(argument)
    options.binary_location = BROWSER
    try:
        driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    except WebDriverException as exc:
        pytest.fail(f"Chromium did not start: {exc.msg}")
    yield driver
    driver.quit()


def until(driver, test, what):
    # The page redraws its board a few times a second: an element found may be gone at once.
    return WebDriverWait(driver, WAIT, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
                             lambda d: test(d), message=what)


def page_state(driver):
    return driver.execute_script("return state")


def open_game(driver, url, variant, fen="", engine_seats=(), movetime=None, clock=None):
    """The page, a new game of ``variant`` from ``fen`` with the engine on ``engine_seats``;
    ``clock``: (minutes, increment seconds) for a game on the clock."""
    driver.get(url)
    until(driver, lambda d: page_state(d) is not None, "the page's first game")
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "time-control")).select_by_value("clock" if clock else "move")
    if clock:
        for name, value in zip(("base", "increment"), clock):
            field = driver.find_element(By.ID, name)
            field.clear()
            field.send_keys(str(value))
    field = driver.find_element(By.ID, "fen")
    field.clear()
    field.send_keys(fen)
    for box in driver.find_elements(By.CSS_SELECTOR, "#seats input"):
        if box.is_selected() != (box.get_attribute("value") in engine_seats):
            box.click()
    if movetime is not None:
        field = driver.find_element(By.ID, "movetime")
        field.clear()
        field.send_keys(str(movetime))
    driver.find_element(By.ID, "new-game").click()
    start = engine.Board(variant, fen or None).fen()
    until(driver, lambda d: d.find_element(By.ID, "message").text or (
          page_state(d)["variant"] == variant and page_state(d)["line"] == []
          and page_state(d)["start_fen"] == start), "the new game")
    assert driver.find_element(By.ID, "message").text == ""


def click_token(driver, token):
    """Click a square, a reserve piece (``@N``) or the bear-off button (``off``)."""
    if token == "off":
        where = "#off"
    elif token.startswith("@"):
        where = f'#reserve button[data-token="{token}"]'
    else:
        where = f'#board rect.square[data-square="{token}"]'
    click_css(driver, where)


def click_css(driver, where, must_exist=True):
    """Click the first element the CSS selector ``where`` finds, found again where the page
    redraws it between finding and clicking (a loaded machine's page does); with
    ``must_exist`` false, nothing when there is none."""
    for _ in range(20):
        found = driver.find_elements(By.CSS_SELECTOR, where)
        if not found:
            assert not must_exist, f"no {where} on the page"
            return
        try:
            found[0].click()
            return
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError(f"{where} kept changing under the click")


def checked(driver, box):
    """The seats checked in a fieldset (#seats: the next game's; #players: this game's)."""
    return sorted(e.get_attribute("value")
                  for e in driver.find_elements(By.CSS_SELECTOR, f"{box} input:checked"))


def choice_moves(driver):
    """The moves the page's choice buttons offer (read again where the list is redrawn
    meanwhile)."""
    for _ in range(20):
        try:
            return {b.get_attribute("data-move")
                    for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")}
        except StaleElementReferenceException:
            time.sleep(0.05)
    raise AssertionError("the choice buttons kept changing")


def play_by_clicks(driver, move, path=None):
    """Play ``move`` as a person does: its squares clicked one by one (``path``: which of its
    click paths; default the first), then its button if the page lists several moves."""
    before = len(page_state(driver)["line"])
    entry = next(m for m in page_state(driver)["moves"] if m["move"] == move)
    for token in path if path is not None else entry["paths"][0]:
        click_token(driver, token)
    if len(page_state(driver)["line"]) == before:
        click_css(driver, f'#choices button[data-move="{move}"]', must_exist=False)
    until(driver, lambda d: len(page_state(d)["line"]) > before, f"the move {move} played")
    assert page_state(driver)["line"][before] == move
    assert driver.find_element(By.ID, "message").text == ""


@pytest.mark.parametrize("variant", list(SHORT_GAMES))
def test_a_short_game_of_every_game_by_clicks(site, browser, variant):
    """Multi-captures square by square (the draughts games), a bearing off (Dipole), a
    placement that mates (Superajedrez), a huff choice (Super Dimensiones): each game to its
    end, and the page says who won and why."""
    fen, line = SHORT_GAMES[variant]
    open_game(browser, site, variant, fen)
    for move in line:
        play_by_clicks(browser, move)
    board = engine.Board(variant, fen)
    for move in line:
        board.push(move)
    status = browser.find_element(By.ID, "status").text
    assert status == f"Game over: {board.outcome().result()}, {board.outcome().reason()}"
    assert page_state(browser)["fen"] == board.fen()


def test_a_capture_by_its_two_ends_and_a_move_by_dragging(site, browser):
    open_game(browser, site, "international", "W:W28,33:B22,12,13")
    play_by_clicks(browser, "28x19", path=["28", "19"])
    open_game(browser, site, "international")
    source = browser.find_element(By.CSS_SELECTOR, '#board rect.square[data-square="32"]')
    target = browser.find_element(By.CSS_SELECTOR, '#board rect.square[data-square="28"]')
    ActionChains(browser).drag_and_drop(source, target).perform()
    until(browser, lambda d: page_state(d)["line"] == ["32-28"], "the dragged move")


def test_a_capture_that_comes_back_over_its_landing_square(site, browser):
    # Frisian: the man on 26 takes 31, then 38 along the rank, 33 and 32, landing on 37 twice;
    # its two ends still play it.
    open_game(browser, site, "frisian", "B:W31,32,33,38,50:B26,1")
    play_by_clicks(browser, "26x37", path=["26", "37"])
    assert page_state(browser)["fen"] == "W:W50:B1,37"


def test_legal_destinations_are_highlighted_and_a_choice_is_offered(site, browser):
    open_game(browser, site, "international")
    click_token(browser, "32")
    targets = {e.get_attribute("data-square")
               for e in browser.find_elements(By.CSS_SELECTOR, "#board rect.square.target")}
    assert targets == {"27", "28"}
    click_token(browser, "32")                                    # let go
    assert not browser.find_elements(By.CSS_SELECTOR, "#board rect.square.target")
    # Superajedrez: a rook's castling with the corner rook or one from the reserve ends alike.
    open_game(browser, site, "superajedrez", "4k3/8/8/8/8/8/8/4K2R[R] w KQ - 0 1")
    click_token(browser, "e1")
    click_token(browser, "g1")
    assert {"e1g1", "e1g1r"} <= choice_moves(browser)
    click_css(browser, '#choices button[data-move="e1g1r"]')
    until(browser, lambda d: page_state(d)["line"] == ["e1g1r"], "castling with a reserve rook")


def test_the_engine_answers_and_a_take_back_undoes_both_moves(site, browser):
    open_game(browser, site, "checkers", engine_seats=("white",), movetime=0.05)
    play_by_clicks(browser, "11-15")
    until(browser, lambda d: len(page_state(d)["line"]) == 2, "the engine's answer")
    browser.find_element(By.ID, "undo").click()
    until(browser, lambda d: page_state(d)["line"] == [], "the take-back")


def test_analysis_lines_navigation_flip_and_export(site, browser):
    open_game(browser, site, "international")
    for move in ("32-28", "18-23"):
        play_by_clicks(browser, move)
    browser.find_element(By.ID, "analyse").click()
    Select(browser.find_element(By.ID, "multipv")).select_by_value("2")
    until(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#analysis .line")) == 2,
          "two lines of analysis")
    # The lines grow and wrap as the depth rises: the buttons below them stay where they are
    # (they moved under the pointer before the box kept its height).
    fen_button_y = "return document.getElementById('copy-fen').getBoundingClientRect().y"
    heights = set()
    for _ in range(8):
        heights.add(browser.execute_script(fen_button_y))
        time.sleep(POLL_S)
    assert len(heights) == 1, f"the FEN button moved while the analysis ran: {sorted(heights)}"
    browser.find_element(By.ID, "first").click()
    until(browser, lambda d: page_state(d)["cursor"] == 0, "the start shown")
    assert page_state(browser)["fen"] == engine.Board("international").fen()
    browser.find_element(By.ID, "last").click()
    until(browser, lambda d: page_state(d)["cursor"] == 2, "the last move shown")
    # Square 1 is at the top of the board, and at its bottom once flipped. Read in one script:
    # the page redraws its board while the analysis runs, so a found element may be gone at once.
    square_one_y = ("return Number(document.querySelector("
                    "'#board rect[data-square=\"1\"]').getAttribute('y'))")
    top = browser.execute_script(square_one_y)
    browser.find_element(By.ID, "flip").click()
    until(browser, lambda d: d.execute_script(square_one_y) > top, "the flipped board")
    browser.find_element(By.ID, "copy-record").click()
    until(browser, lambda d: "1. 32-28 18-23" in d.find_element(By.ID, "export").get_attribute("value"),
          "the game record")
    browser.find_element(By.ID, "copy-fen").click()
    try:
        until(browser, lambda d: d.find_element(By.ID, "export").get_attribute("value")
              == page_state(d)["fen"], "the FEN")
    except TimeoutException:
        pytest.fail(f"the export box shows {browser.find_element(By.ID, 'export').get_attribute('value')!r}, "
                    f"the page's position is {page_state(browser)['fen']!r}")


def test_errors_are_shown_on_the_page_and_change_nothing(site, browser):
    open_game(browser, site, "international")
    field = browser.find_element(By.ID, "move-input")
    field.send_keys("32-26\n")
    until(browser, lambda d: "not a legal move" in d.find_element(By.ID, "message").text, "the error")
    assert page_state(browser)["line"] == []
    field = browser.find_element(By.ID, "fen")
    field.send_keys("W:W99")
    browser.find_element(By.ID, "new-game").click()
    until(browser, lambda d: d.find_element(By.ID, "message").text != "", "the FEN error")
    assert page_state(browser)["fen"] == engine.Board("international").fen()


def test_a_game_file_pasted_in_loads(site, browser):
    open_game(browser, site, "international", engine_seats=("black",))
    text = browser.find_element(By.ID, "load-text")
    text.send_keys('[Variant "dipole"]\n\n1. e1-e3 d8-d6 *\n')
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: page_state(d)["variant"] == "dipole"
          and page_state(d)["line"] == ["e1-e3", "d8-d6"], "the loaded game")
    time.sleep(0.2)
    # Nobody's seat is the engine's in a loaded game, and the game's panel shows it; the new
    # game form keeps what the person chose (the engine as Black), and so does the next game.
    assert not browser.find_elements(By.CSS_SELECTOR, "#players input:checked")
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "international"
    assert checked(browser, "#seats") == ["black"]
    # A file that goes wrong loads up to the error and says where.
    text = browser.find_element(By.ID, "load-text")
    text.clear()
    text.send_keys('[Variant "dipole"]\n\n1. e1-e3 d8-d6 2. e3-h9 *\n')
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: "read with warnings" in d.find_element(By.ID, "message").text,
          "the warning")
    assert page_state(browser)["line"] == ["e1-e3", "d8-d6"]
    # A file of which no move can be read is refused: the game shown stays.
    text = browser.find_element(By.ID, "load-text")
    text.clear()
    text.send_keys('[Variant "dipole"]\n\n1. e3-h9 *\n')
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: "no move of this game file could be read" in
          d.find_element(By.ID, "message").text, "the refusal")
    assert page_state(browser)["line"] == ["e1-e3", "d8-d6"]
    browser.find_element(By.ID, "new-game").click()
    until(browser, lambda d: page_state(d)["variant"] == "international", "the new game")
    assert page_state(browser)["engine_seats"] == ["black"]


# -- play: clocks, the move list, the end of a game -----------------------------------------------

def dialog_open(driver, name):
    return driver.execute_script(f"return document.getElementById('{name}').open")


def test_a_game_lost_on_time_its_dialog_a_rematch_and_swapped_sides(site, browser):
    # Three seconds each, nobody plays: White's flag falls; the dialog says so.
    open_game(browser, site, "international", clock=(0.05, 0), engine_seats=())
    assert browser.find_element(By.CSS_SELECTOR, "#player-bottom .clock").is_displayed()
    until(browser, lambda d: dialog_open(d, "result-dialog"), "the result")
    assert browser.find_element(By.ID, "result-text").text == \
        "Black wins (0-1): White lost on time."
    assert browser.find_element(By.ID, "status").text == "Game over: 0-1, White lost on time"
    assert page_state(browser)["clock"]["left"]["white"] == 0 and page_state(browser)["moves"] == []
    # A rematch: the same game and clock, a new line. The engine takes White in it (this
    # game's seats), plays, and Black's flag falls; then sides swapped: the engine is Black.
    browser.find_element(By.ID, "rematch").click()
    until(browser, lambda d: not dialog_open(d, "result-dialog")
          and page_state(d)["outcome"] is None, "the rematch")
    assert page_state(browser)["clock"]["base"] == 3 and page_state(browser)["line"] == []
    click_css(browser, '#players input[value="white"]')
    until(browser, lambda d: dialog_open(d, "result-dialog"), "Black's flag")
    assert browser.find_element(By.ID, "result-text").text == \
        "White wins (1-0): Black lost on time."
    assert len(page_state(browser)["line"]) == 1
    browser.find_element(By.ID, "swap").click()
    until(browser, lambda d: page_state(d)["engine_seats"] == ["black"]
          and page_state(d)["line"] == [], "sides swapped")
    until(browser, lambda d: dialog_open(d, "result-dialog"), "White's flag")
    browser.find_element(By.ID, "result-close").click()
    browser.find_element(By.ID, "copy-record").click()
    until(browser, lambda d: '[Termination "time forfeit"]' in
          d.find_element(By.ID, "export").get_attribute("value"), "the record")
    record = browser.find_element(By.ID, "export").get_attribute("value")
    assert '[Result "0-2"]' in record and '[Black "Dimensiones"]' in record
    assert '[TimeControl "3+0"]' in record


def test_the_engine_plays_on_its_clock_and_the_clocks_run(site, browser):
    open_game(browser, site, "checkers", clock=(0.5, 1), engine_seats=("black",))
    # Black moves first in English checkers: the engine's clock runs, then White's.
    until(browser, lambda d: len(page_state(d)["line"]) == 1, "the engine's move")
    clock = page_state(browser)["clock"]
    assert clock["running"] == "white" and 0 < clock["left"]["black"] <= 31
    shown = lambda d: float(d.find_element(By.CSS_SELECTOR, "#player-bottom .clock")
                            .get_attribute("data-seconds"))
    first = shown(browser)
    until(browser, lambda d: shown(d) < first - 0.5, "White's clock running down")


def test_the_move_list_is_numbered_in_the_games_notation(site, browser):
    open_game(browser, site, "international")
    for move in ("32-28", "19-23", "28x19"):
        play_by_clicks(browser, move)
    rows = [row.text.split() for row in browser.find_elements(By.CSS_SELECTOR, "#moves .turn")]
    assert rows == [["1.", "32-28", "19-23"], ["2.", "28x19"]]
    # Superajedrez as its PGN writes it: a placement 0-Ta2, castling 0-0; a king in check marked.
    open_game(browser, site, "superajedrez", "4k3/8/8/8/8/8/8/4K2R[R] w KQ - 0 1")
    play_by_clicks(browser, "R@a2")
    play_by_clicks(browser, "e8d8")
    play_by_clicks(browser, "e1g1")
    rows = [row.text.split() for row in browser.find_elements(By.CSS_SELECTOR, "#moves .turn")]
    assert rows == [["1.", "0-Ta2", "Rd8"], ["2.", "0-0"]]
    open_game(browser, site, "superajedrez", "4k3/8/8/8/8/8/8/R3K3[] w - - 0 1")
    play_by_clicks(browser, "a1a8")
    assert page_state(browser)["check"] == "e8"
    assert 'class="mark"' in page_state(browser)["svg"]
    # The captured pieces beside their captor: White took three men.
    open_game(browser, site, "international", "W:W28,33:B22,12,13")
    play_by_clicks(browser, "28x19", path=["28", "19"])
    assert browser.find_element(By.CSS_SELECTOR, "#player-bottom .taken").text == "\u25cf" * 3
    assert browser.find_element(By.CSS_SELECTOR, "#player-top .taken").text == ""


def test_a_move_in_an_earlier_position_asks_before_the_rest_goes(site, browser):
    open_game(browser, site, "international")
    for move in ("32-28", "19-23"):
        play_by_clicks(browser, move)
    browser.find_element(By.ID, "first").click()
    until(browser, lambda d: page_state(d)["cursor"] == 0, "the start shown")
    for token in ("31", "27"):
        click_token(browser, token)
    until(browser, lambda d: dialog_open(d, "cut-dialog"), "the question")
    assert "replaces the 2 moves after this position" in browser.find_element(By.ID, "cut-text").text
    browser.find_element(By.ID, "cut-no").click()
    time.sleep(0.3)
    assert page_state(browser)["line"] == ["32-28", "19-23"]
    for token in ("31", "27"):
        click_token(browser, token)
    until(browser, lambda d: dialog_open(d, "cut-dialog"), "the question again")
    browser.find_element(By.ID, "cut-yes").click()
    until(browser, lambda d: page_state(d)["line"] == ["31-27"], "the new line")


# -- review, sound, settings, phones -----------------------------------------------------------

def test_a_review_draws_the_score_graph_and_marks_the_moves(site, browser):
    open_game(browser, site, "international")
    text = browser.find_element(By.ID, "load-text")
    text.send_keys("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 *\n")
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: len(page_state(d)["line"]) == 6, "the loaded game")
    browser.find_element(By.ID, "review").click()
    until(browser, lambda d: (page_state(d)["review"] or {}).get("finished"), "the review")
    review = page_state(browser)["review"]
    assert [m["ply"] for m in review["moves"]] == [1, 2, 3, 4, 5, 6]
    dots = browser.execute_script(
        "return [...document.querySelectorAll('#graph circle')].map("
        "c => [Number(c.dataset.ply), Number(c.dataset.white)])")
    assert dots == [[m["ply"], m["white"]] for m in review["moves"]]
    marked = {m["ply"]: m["mark"] for m in review["moves"] if m["mark"]}
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#moves .move[data-ply]')].map(s => s.textContent)")
    assert shown == [m + marked.get(i + 1, "") for i, m in enumerate(page_state(browser)["line"])]
    click_css(browser, '#graph circle[data-ply="3"]')
    until(browser, lambda d: page_state(d)["cursor"] == 3, "the move clicked on the graph")
    assert browser.find_element(By.ID, "eval-bar").get_attribute("data-white") == str(review["moves"][2]["white"])


def test_sounds_for_a_move_and_a_capture_and_the_mute_switch(site, browser):
    open_game(browser, site, "international", "W:W33,40:B22,12")
    browser.execute_script("soundLog.length = 0")
    play_by_clicks(browser, "40-35")
    play_by_clicks(browser, "22-28")
    play_by_clicks(browser, "33x22", path=["33", "22"])
    assert browser.execute_script("return soundLog") == ["move", "move", "capture"]
    browser.find_element(By.ID, "sound").click()                  # muted
    play_by_clicks(browser, "12-17")
    assert browser.execute_script("return soundLog") == ["move", "move", "capture"]
    browser.find_element(By.ID, "sound").click()


def test_board_style_and_coordinates_are_remembered(site, browser):
    open_game(browser, site, "checkers")
    Select(browser.find_element(By.ID, "board-theme")).select_by_value("green")
    Select(browser.find_element(By.ID, "piece-style")).select_by_value("flat")
    browser.find_element(By.ID, "coordinates").click()
    open_game(browser, site, "checkers")                         # the page loaded again
    assert browser.find_element(By.ID, "board-theme").get_attribute("value") == "green"
    fill = browser.execute_script("return getComputedStyle(document.querySelector("
                                  "'#board rect.square[data-square]')).fill")
    assert fill == "rgb(118, 150, 86)"
    assert not browser.find_element(By.CSS_SELECTOR, "#board .coordinate").is_displayed()
    for name, value in (("board-theme", "wood"), ("piece-style", "classic")):
        Select(browser.find_element(By.ID, name)).select_by_value(value)
    browser.find_element(By.ID, "coordinates").click()


def test_a_phone_sees_the_board_first_and_whole(site, browser):
    browser.set_window_size(390, 844)
    try:
        open_game(browser, site, "international")
        width = browser.execute_script("return document.documentElement.clientWidth")
        box = browser.execute_script("return document.querySelector('#board svg')"
                                     ".getBoundingClientRect().toJSON()")
        # Inside the screen (to a pixel's rounding) and most of its width.
        assert box["left"] > -1 and box["right"] < width + 1 and box["width"] > 0.8 * width, box
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        setup = browser.execute_script("return document.getElementById('setup')"
                                       ".getBoundingClientRect().top")
        assert box["top"] < setup
        # A finger's drag plays a move, and so do two taps.
        from selenium.webdriver.common.actions import interaction
        from selenium.webdriver.common.actions.action_builder import ActionBuilder
        from selenium.webdriver.common.actions.pointer_input import PointerInput

        def square(name):
            return browser.find_element(By.CSS_SELECTOR, f'#board rect.square[data-square="{name}"]')
        touch = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        touch.pointer_action.move_to(square("32")).pointer_down().move_to(square("28")).pointer_up()
        touch.perform()
        until(browser, lambda d: page_state(d)["line"] == ["32-28"], "the move dragged by touch")
        for name in ("19", "23"):
            touch = ActionBuilder(browser, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
            touch.pointer_action.move_to(square(name)).pointer_down().pointer_up()
            touch.perform()
        until(browser, lambda d: page_state(d)["line"] == ["32-28", "19-23"], "the move tapped")
    finally:
        browser.set_window_size(1300, 900)


# -- mends ---------------------------------------------------------------------------------------

def test_what_the_page_got_wrong_before(site, browser):
    # The export box empties for a new game.
    open_game(browser, site, "international")
    browser.find_element(By.ID, "copy-fen").click()
    until(browser, lambda d: d.find_element(By.ID, "export").get_attribute("value"), "the FEN")
    open_game(browser, site, "checkers")
    assert browser.find_element(By.ID, "export").get_attribute("value") == ""
    # An error goes at the next click on the board.
    browser.find_element(By.ID, "move-input").send_keys("1-5\n")
    until(browser, lambda d: d.find_element(By.ID, "message").text, "the error")
    click_token(browser, "11")
    assert browser.find_element(By.ID, "message").text == ""
    # Analysis of a finished game says it is over.
    fen, line = SHORT_GAMES["dipole"]
    open_game(browser, site, "dipole", fen)
    for move in line:
        play_by_clicks(browser, move)
    browser.find_element(By.ID, "result-close").click()
    browser.find_element(By.ID, "analyse").click()
    until(browser, lambda d: d.find_element(By.ID, "analysis").text.startswith(
        "nothing to analyse: the game is over"), "the analysis box")
    # After the engine's move (analysis off), no analysis of another position is shown.
    open_game(browser, site, "checkers", engine_seats=("black",), movetime=0.05)
    until(browser, lambda d: len(page_state(d)["line"]) == 1, "the engine's move")
    assert page_state(browser)["analysis"] is None
    # Super Dimensiones: who is who, in colour; the cards in English too.
    open_game(browser, site, "superdimensiones")
    teams = browser.find_elements(By.CSS_SELECTOR, "#legend .team")
    assert [t.text for t in teams] == ["team a: A1 (player 1)", "team c: A2 (player 2)",
                                       "team b: B1 (player 1)", "team d: B2 (player 2)"]
    assert "conquistar (conquer)" in browser.find_element(By.ID, "cards").text
    # Its record names the engine only for the player whose two teams it holds.
    open_game(browser, site, "superdimensiones", engine_seats=("c", "d"))
    browser.find_element(By.ID, "copy-record").click()
    until(browser, lambda d: "[White " in d.find_element(By.ID, "export").get_attribute("value"),
          "the record")
    record = browser.find_element(By.ID, "export").get_attribute("value")
    assert '[White "?"]' in record and '[Black "Dimensiones"]' in record
