"""The documentation site in a real browser: headless Chromium renders the rule pages with their
cards, and the site's search, served over http, finds a rule by its ID.

Needs Chromium (Debian: ``apt-get install -y chromium``); skipped, with that reason, without it.
The screenshots are saved in the test's temporary folder.
"""

from __future__ import annotations

import pytest

from tests.docs_site import Browser, build_site, chromium_path, count_pixels, serve

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on PATH: apt-get install -y chromium")


@pytest.fixture(scope="module")
def site_url(tmp_path_factory):
    """The built site, served on 127.0.0.1 for this module."""
    dest = tmp_path_factory.mktemp("browser-site")
    process = build_site(dest)
    assert process.returncode == 0, f"mkdocs build --strict failed:\n{process.stderr[-4000:]}"
    with serve(dest) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    chromium = Browser(CHROMIUM, width=1280, height=1400)
    yield chromium
    chromium.close()


def _is_red(r: int, g: int, b: int) -> bool:
    return r > 150 and g < 90 and b < 90


def test_the_rules_page_renders_its_cards_in_colour(site_url, browser, tmp_path):
    browser.open(f"{site_url}/rules/03-leading/#LEAD-HEARTS")
    found = browser.wait_for("""(() => {
        const heading = document.getElementById('LEAD-HEARTS');
        const chips = Array.from(document.querySelectorAll('.hr-examples .hr-card'));
        const red = chips.filter(c => /[♥♦]/.test(c.textContent));
        const black = chips.filter(c => /[♠♣]/.test(c.textContent));
        if (!heading || !red.length || !black.length) return null;
        return {heading: heading.textContent, red: getComputedStyle(red[0]).color,
                black: getComputedStyle(black[0]).color, glyphs: chips.map(c => c.textContent).join(' '),
                width: red[0].getBoundingClientRect().width};
    })()""")
    assert found["heading"].startswith("LEAD-HEARTS: Leading hearts")
    assert found["red"] == "rgb(198, 40, 40)" and found["black"] == "rgb(26, 26, 26)"
    assert "3♥" in found["glyphs"] and "Q♠" in found["glyphs"] and found["width"] > 10
    browser.evaluate("document.querySelector('#LEAD-HEARTS ~ .hr-examples').scrollIntoView()")
    shot = browser.screenshot(tmp_path / "rules-lead-hearts.png")
    assert count_pixels(shot, _is_red) > 200, f"no red card glyphs visible in {shot}"


def test_the_site_search_finds_a_rule_by_its_id(site_url, browser, tmp_path):
    browser.open(f"{site_url}/?q=LEAD-OPEN")
    links = browser.wait_for(
        "Array.from(document.querySelectorAll('.md-search-result__link')).map(a => a.getAttribute('href'))")
    browser.screenshot(tmp_path / "search-lead-open.png")
    assert any(link.endswith("rules/03-leading/?h=lead+open#LEAD-OPEN") for link in links[:4]), links[:6]
