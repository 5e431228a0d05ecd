"""Debian's chromium, headless, driven by Selenium through the system's
chromedriver (make test installs both; Selenium's own browser downloads do
not work offline): the browser of the replay page's and the course
server's tests."""
from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@contextmanager
def headless_chromium() -> Iterator[webdriver.Chrome]:
    """A browser that logs its requests and console (read with get_log),
    quit at the end."""
    for program in (CHROMIUM, CHROMEDRIVER):
        assert shutil.which(program), f"{program} is missing: make test installs it (apt-get install chromium chromium-driver)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--hide-scrollbars", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def network_events(browser: webdriver.Chrome) -> list[dict]:
    """The DevTools Network events logged since the last call."""
    events = (json.loads(entry["message"])["message"] for entry in browser.get_log("performance"))
    return [event for event in events if event["method"].startswith("Network.")]
