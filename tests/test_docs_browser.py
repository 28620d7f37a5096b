"""The documentation site in a real browser: headless Chromium renders the pages at a desktop width (1300 px) and
a phone's (390 px), the cards in colour, nothing wider than the screen on a phone, and the site's search, served
over http, finds a rule by its ID.

Needs Chromium (Debian: ``apt-get install -y chromium``); skipped, with that reason, without it.
The screenshots are saved in the test's temporary folder (``pytest --basetemp DIR`` keeps them in DIR).
"""

from __future__ import annotations

import pytest

from hearts_ref.spec import load_rules
from tests.docs_site import Browser, build_site, chromium_path, count_pixels, serve

CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on PATH: apt-get install -y chromium")

# The pages a reader lands on first, by the name of their screenshot.
PAGES = {"home": "", "rule": "rules/04-following/", "matrix": "matrix/", "proofs": "proofs/",
         "guide": "conformance/", "house-rule": "house-rules/"}
WIDTHS = (1300, 390)
# Rule IDs made of words that other rules and pages use too: the hardest for the search to put first.
SHARED_WORDS = ("TRICK-WINNER", "LEAD-WINNER", "PASS-COUNT", "SCORE-NO-TRICKS", "WIN-TIE", "DEAL-HANDS",
                "LEAD-HEARTS", "SCORE-MOON")

# Elements wider than the screen, outside code blocks (which scroll on their own): a table that hides a column
# behind a scroll bar counts, since that column is off-screen.
OVERFLOW = """(() => {
    const width = document.documentElement.clientWidth;
    const inCode = (e) => e.closest('pre, .highlight, .md-search, .md-sidebar, .md-header, .md-tabs, .md-nav');
    const wide = Array.from(document.querySelectorAll('.md-content *')).filter(e => {
        const box = e.getBoundingClientRect();
        return box.width > 0 && box.right > width + 1 && !inCode(e);
    });
    return {page: document.documentElement.scrollWidth, width: width,
            wide: wide.slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 40))};
})()"""


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
    chromium = Browser(CHROMIUM, width=1300, height=1400)
    yield chromium
    chromium.close()


def _at_width(browser: Browser, width: int) -> None:
    browser.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=1400, deviceScaleFactor=1,
                 mobile=width < 600)


def _is_red(r: int, g: int, b: int) -> bool:
    return r > 150 and g < 90 and b < 90


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_a_page_fits_the_screen_at_each_width(site_url, browser, tmp_path, name, width):
    _at_width(browser, width)
    browser.open(f"{site_url}/{PAGES[name]}")
    browser.wait_for("document.querySelector('.md-content h1') !== null")
    shot = browser.screenshot(tmp_path / f"{name}-{width}.png")
    found = browser.evaluate(OVERFLOW)
    assert found["page"] <= found["width"], f"{name} is {found['page']} px wide at {width} px: {found['wide']} ({shot})"
    assert not found["wide"], f"{name} at {width} px: wider than the screen: {found['wide']} ({shot})"


def test_the_matrix_shows_every_column_of_a_parameter_on_a_phone(site_url, browser):
    _at_width(browser, 390)
    browser.open(f"{site_url}/matrix/")
    cells = browser.wait_for("""(() => {
        const row = document.querySelector('.hr-matrix tbody tr');
        if (!row) return null;
        return Array.from(row.children).map(td => ({right: td.getBoundingClientRect().right, text: td.textContent}));
    })()""")
    assert len(cells) == 5 and all(cell["right"] <= 390 for cell in cells), cells
    assert "OpenSpiel hearts: " in cells[3]["text"], cells[3]


def test_the_rules_page_renders_its_cards_in_colour(site_url, browser, tmp_path):
    _at_width(browser, 1300)
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


def _search(browser: Browser, url: str, query: str) -> list[str]:
    browser.open(f"{url}/?q={query}")
    return browser.wait_for("(() => { const links = Array.from(document.querySelectorAll('.md-search-result__link'))"
                            ".map(a => a.getAttribute('href')); return links.length ? links : null; })()")


def test_the_site_search_puts_the_rule_of_an_id_first(site_url, browser, tmp_path):
    """FIRST-NO-POINTS: the first result is its chapter, whose first section is the rule; rule IDs whose words
    other rules share find their rule among the first results."""
    _at_width(browser, 1300)
    links = _search(browser, site_url, "FIRST-NO-POINTS")
    browser.screenshot(tmp_path / "search-first-no-points.png")
    assert "/rules/04-following/" in links[0] and links[1].endswith("#FIRST-NO-POINTS"), links[:4]
    late = {}
    for rule_id in SHARED_WORDS:
        assert rule_id in load_rules()
        found = _search(browser, site_url, rule_id)
        rank = next((i for i, link in enumerate(found) if link.endswith(f"#{rule_id}")), None)
        if rank is None or rank > 5:
            late[rule_id] = found[:3]
    assert not late, late
