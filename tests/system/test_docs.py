"""The docs stay true: the generated pictures match the code, and the README links only to files that
are in the repository (a new user's clone has no ``shared/`` folder)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from support import ROOT_DIR

ROOT = ROOT_DIR


def test_generated_docs_are_current() -> None:
    result = subprocess.run([sys.executable, "docs/generate.py", "--check"], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_links_only_to_files_in_the_repository() -> None:
    text = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#]+)\)", text)
    assert targets
    for target in targets:
        if "://" not in target:
            assert (ROOT / target).exists(), f"README links to {target}, which is not in the repository"
    assert "shared/" not in text


def test_every_game_flow_has_its_diagram() -> None:
    from engines.registry import games

    flows = (ROOT / "docs" / "flows.md").read_text()
    for info in games():
        if info.flow is not None:
            assert f"## {info.title}" in flows and "stateDiagram-v2" in flows


@pytest.mark.parametrize("game", ["hannibal", "scipio", "hannipe", "cannonball", "factional"])
def test_every_interpretation_an_engine_cites_is_explained_in_its_rules_page(game: str) -> None:
    """``docs/rules/GAME.md`` is the game's rules in the project's own words; each interpretation code the
    engine cites (I-n, where the rule books are silent) has its own entry there, in bold."""
    cited = {code for path in (ROOT / "engines" / game).rglob("*.py")
             for code in re.findall(r"\bI-\d+[a-z]?\b", path.read_text())}
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    assert cited, f"engines/{game} cites no interpretation"
    missing = sorted(code for code in cited if f"**{code}**" not in page)
    assert not missing, f"docs/rules/{game}.md does not explain {', '.join(missing)}"
    assert f"docs/rules/{game}.md" in (ROOT / "README.md").read_text()


def test_the_readme_s_pictures_of_the_page_are_those_the_browser_tests_take() -> None:
    """Every picture of the web page the README shows is in docs/pages, and is one a browser test takes (its
    name is in the tests), so ``python docs/generate.py --pages`` makes each one anew."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"\(docs/pages/([\w.-]+\.png)\)", readme)
    browser = (ROOT / "tests" / "web" / "test_web_browser.py").read_text(encoding="utf-8")
    assert len(shown) >= 4
    for name in shown:
        assert (ROOT / "docs" / "pages" / name).exists(), name
        assert f'"{name}"' in browser, name
