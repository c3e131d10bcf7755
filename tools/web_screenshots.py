"""Screenshots of the web board for the docs: one game of each kind, a few moves in, a piece
picked up (its destinations highlighted) and the analysis running.

    python tools/web_screenshots.py [--out docs/pictures] [--only VARIANT ...]

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
            Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
            driver.find_element(By.ID, "fen").send_keys(fen or "")
            for box in driver.find_elements(By.CSS_SELECTOR, "#seats input:checked"):
                box.click()
            driver.find_element(By.ID, "new-game").click()
            wait.until(lambda d: d.execute_script("return state.variant") == variant)
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
    finally:
        driver.quit()
        httpd.shutdown()
        lobby.close_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
