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


def open_game(driver, url, variant, fen="", engine_seats=(), movetime=None):
    """The page, a new game of ``variant`` from ``fen`` with the engine on ``engine_seats``."""
    driver.get(url)
    until(driver, lambda d: page_state(d) is not None, "the page's first game")
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
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
    open_game(browser, site, "international")
    text = browser.find_element(By.ID, "load-text")
    text.send_keys('[Variant "dipole"]\n\n1. e1-e3 d8-d6 *\n')
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: page_state(d)["variant"] == "dipole"
          and page_state(d)["line"] == ["e1-e3", "d8-d6"], "the loaded game")
    time.sleep(0.2)
    assert browser.find_element(By.ID, "variant").get_attribute("value") == "dipole"
    # Nobody's seat is the engine's in a loaded game, and the page shows it.
    assert not browser.find_elements(By.CSS_SELECTOR, "#seats input:checked")
    # A file that goes wrong loads up to the error and says where.
    text = browser.find_element(By.ID, "load-text")
    text.clear()
    text.send_keys('[Variant "dipole"]\n\n1. e1-e3 d8-d6 2. e3-h9 *\n')
    browser.find_element(By.ID, "load-button").click()
    until(browser, lambda d: "read with warnings" in d.find_element(By.ID, "message").text,
          "the warning")
    assert page_state(browser)["line"] == ["e1-e3", "d8-d6"]
