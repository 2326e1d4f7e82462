"""The codes page (``controller/help/codes.md``, copied to ``docs/codes.md``), which a new player keeps beside the
table and the table shows when NEXT is held: a section for every game the table plays, each linking its rules,
and the README points to it."""

from __future__ import annotations

from support import ROOT_DIR

from controller.help import CODES_PATH, codes
from engines.registry import games


def test_every_game_s_codes_are_explained_and_the_readme_links_the_page() -> None:
    page = CODES_PATH.read_text(encoding="utf-8")
    sections = page.split("\n## ")
    for info in games():
        section = next((s for s in sections if s.startswith(info.title)), "")
        assert section, f"the codes page has no section for {info.title}"
        assert f"(rules/{info.name}.md)" in section and len(codes(info.title)) > 20
    assert "[docs/codes.md](docs/codes.md)" in (ROOT_DIR / "README.md").read_text(encoding="utf-8")
