"""Screenshots of the web board for the docs: one game of each kind, a few moves in, a piece
picked up (its destinations highlighted) and the analysis running; then a game on the clock
against the engine (web-game.png), a reviewed game (web-review.png) and a phone's view
(web-phone.png).

    python tools/web_screenshots.py [--out docs/pictures] [--only NAME ...]

NAME: a game's name, or game, review, phone.

Needs Bottle, Selenium, and Debian's chromium and chromium-driver (as the browser tests do).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from engine import serve  # noqa: E402

# A start (FEN, or None for the usual one), moves to play first, and the square to pick up
# (None: the first piece that can move; "": none, to show the buttons of a pending choice).
SCENES = {
    "international": (None, 10, None),
    "spanish": (None, 8, None),
    "checkers": (None, 8, None),
    "chapinas": (None, 8, None),
    "turkish": (None, 8, None),
    "gothic-checkers": (None, 8, None),
    "dipole": ("W:We1.10,e3.2:Bh8.12", 0, "e1"),
    "superajedrez": (None, 9, None),
    "superdimensiones": ("d5/6/3c2/2a1a1/6/ab4 a MCUWR - 0 0", 1, ""),
}


def post(url: str, path: str, data: dict) -> dict:
    request = urllib.request.Request(url + path, data=json.dumps(data).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


# A short International game (the engine's at 3,000 nodes a move, but for White's blunder
# 6. 33-29), for the review's picture.
REVIEWED = ("1. 32-28 18-23 2. 38-32 12-18 3. 42-38 7-12 4. 34-29 23x34 5. 39x30 20-25 "
            "6. 33-29 25x23 7. 47-42 15-20 8. 31-27 1-7 9. 44-39 17-21 10. 50-44 21-26 "
            "11. 37-31 26x37 12. 42x31 20-25 13. 41-37 10-15 14. 38-33 11-17 15. 31-26 7-11 "
            "16. 37-31 14-20 *")


def open_page(driver, wait, url, variant, engine_seats=(), clock=None, reload=True):
    """A new game on the page (loaded again first, unless ``reload`` is false)."""
    if reload:
        driver.get(url)
        wait.until(lambda d: d.execute_script("return state") is not None)
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    for box in driver.find_elements(By.CSS_SELECTOR, "#seats input"):
        if box.is_selected() != (box.get_attribute("value") in engine_seats):
            box.click()
    Select(driver.find_element(By.ID, "time-control")).select_by_value("clock" if clock else "move")
    if clock:
        for name, value in zip(("base", "increment"), clock):
            driver.find_element(By.ID, name).clear()
            driver.find_element(By.ID, name).send_keys(str(value))
    before = driver.execute_script("return gameId")
    driver.find_element(By.ID, "new-game").click()
    wait.until(lambda d: d.execute_script("return gameId") != before)


def game_scene(driver, wait, url, rng) -> None:
    """International against the engine on a 5+3 clock, ten moves in."""
    open_page(driver, wait, url, "international", ("black",), (5, 3))
    for _ in range(10):
        wait.until(lambda d: d.execute_script(
            "return state.mover === 'white' && !state.thinking && state.moves.length > 0"))
        moves = driver.execute_script("return state.moves")
        move = rng.choice(moves)["move"]
        driver.execute_script(f"play({json.dumps(move)})")
        wait.until(lambda d: d.execute_script("return state.line.length") % 2 == 0
                   and d.execute_script("return state.mover") == "white")
    time.sleep(1.0)


def review_scene(driver, wait, url, rng) -> None:
    """A loaded game, reviewed: the graph, the marks, the evaluation bar at the blunder."""
    open_page(driver, wait, url, "international")
    driver.find_element(By.ID, "load-text").send_keys(REVIEWED)
    driver.find_element(By.ID, "load-button").click()
    wait.until(lambda d: d.execute_script("return state.line.length") > 20)
    driver.find_element(By.ID, "review").click()
    WebDriverWait(driver, 300).until(lambda d: d.execute_script(
        "return Boolean(state.review && state.review.finished)"))
    worst = max(driver.execute_script("return state.review.moves"), key=lambda m: m["loss"])
    driver.execute_script(f"goto({worst['ply']})")
    time.sleep(1.0)


def phone_scene(driver, wait, url, rng) -> None:
    driver.set_window_size(390, 844)
    open_page(driver, wait, url, "international", ("black",))
    driver.execute_script("play('32-28')")
    wait.until(lambda d: d.execute_script("return state.line.length") == 2)
    time.sleep(0.5)


EXTRA = {"game": game_scene, "review": review_scene, "phone": phone_scene}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "pictures"))
    parser.add_argument("--only", nargs="*", default=None, metavar="VARIANT")
    args = parser.parse_args()
    httpd, lobby, url = serve.start(port=0, hash_mb=16)
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,1100", "--hide-scrollbars"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    wait = WebDriverWait(driver, 30)
    rng = random.Random(7)
    try:
        for variant, (fen, plies, pick) in SCENES.items():
            if args.only and variant not in args.only:
                continue
            driver.get(url)
            wait.until(lambda d: d.execute_script("return state") is not None)
            driver.find_element(By.ID, "fen").send_keys(fen or "")
            open_page(driver, wait, url, variant, reload=False)
            key = driver.execute_script("return gameId")
            for _ in range(plies):
                moves = driver.execute_script("return state.moves")
                quiet = [m for m in moves if "x" not in m["move"]] or moves
                state = post(url, f"api/games/{key}/move", {"move": rng.choice(quiet)["move"]})
                wait.until(lambda d: d.execute_script("return state.fen") == state["fen"])
            driver.find_element(By.ID, "analyse").click()
            time.sleep(2.5)
            moves = driver.execute_script("return state.moves")
            square = pick if pick is not None else next(m["paths"][0][0] for m in moves if m["paths"][0])
            if square and not square.startswith("@"):
                driver.find_element(By.CSS_SELECTOR, f'#board rect.square[data-square="{square}"]').click()
            path = Path(args.out) / f"web-{variant}.png"
            driver.save_screenshot(str(path))
            print(f"{path}  ({path.stat().st_size:,} bytes)")
        for name, scene in EXTRA.items():
            if args.only and name not in args.only:
                continue
            driver.set_window_size(1280, 1100)
            scene(driver, wait, url, rng)
            path = Path(args.out) / f"web-{name}.png"
            driver.save_screenshot(str(path))
            print(f"{path}  ({path.stat().st_size:,} bytes)")
    finally:
        driver.quit()
        httpd.shutdown()
        lobby.close_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
