"""Docs that travel with the code (issue 29): every link of README.md and of the markdown under docs/
resolves inside the repository. A relative link names a file or folder of the repository (never
outside it, as ``../shared/...`` did); its ``#anchor``, on a markdown file, names one of that file's
headings (GitHub's slugs). External ``http(s)``/``mailto`` links are allowed and never fetched.
The files are found by globbing, so a new page is checked without an edit here."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
EXTERNAL = re.compile(r"^(https?:|mailto:)", re.I)
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def markdown_files(root: Path = ROOT) -> list[Path]:
    return sorted([root / "README.md", *(root / "docs").rglob("*.md")])


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    out, fenced = [], False
    for no, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((no, line))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: markup dropped, lower case, punctuation but - and _ removed,
    spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = text.replace("`", "").replace("*", "").lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in _prose_lines(path.read_text(encoding="utf-8")):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path: Path) -> list[tuple[int, str]]:
    out = []
    for no, line in _prose_lines(path.read_text(encoding="utf-8")):
        ref = REFERENCE.match(line)
        if ref:
            out.append((no, ref.group(1)))
            continue
        out += [(no, m.group(1)) for m in INLINE.finditer(CODE_SPAN.sub("", line))]
    return out


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Why each link of ``path`` does not resolve inside ``root`` (empty: all resolve)."""
    bad = []
    for no, target in links(path):
        if EXTERNAL.match(target):
            continue
        where = f"{path.relative_to(root)}:{no}: {target}"
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            bad.append(f"{where}: not a link into the repository")
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        if not dest.is_relative_to(root.resolve()):
            bad.append(f"{where}: outside the repository")
        elif not dest.exists():
            bad.append(f"{where}: no such file")
        elif anchor and dest.suffix == ".md" and unquote(anchor).lower() not in anchors(dest):
            bad.append(f"{where}: no heading #{anchor} in {dest.relative_to(root.resolve())}")
    return bad


def test_the_docs_are_found() -> None:
    files = markdown_files()
    assert ROOT / "README.md" in files and len(files) > 5
    assert any(links(f) for f in files)


def test_every_readme_and_docs_link_resolves_inside_the_repository() -> None:
    bad = [b for f in markdown_files() for b in broken_links(f)]
    assert not bad, "links that do not resolve inside the repository:\n" + "\n".join(bad)


def test_a_broken_link_of_each_kind_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# A page\n\n## Section 3.8.4: the `penalty`\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/page.md) [ok](docs/page.md#section-384-the-penalty) [ok](#readme) [ok](https://example.org/x)\n"
        "# readme\n"
        "[out](../shared/RULES.md) [missing](docs/nope.md) [anchor](docs/page.md#no-such-heading)\n"
        "```\n[in a fence](nowhere.md)\n```\n`[in code](nowhere.md)`\n[ref]: docs/gone.md\n", encoding="utf-8")
    bad = broken_links(tmp_path / "README.md", tmp_path)
    assert [b.split(": ", 1)[1] for b in bad] == [
        "../shared/RULES.md: outside the repository", "docs/nope.md: no such file",
        "docs/page.md#no-such-heading: no heading #no-such-heading in docs/page.md", "docs/gone.md: no such file"], bad


SECTION_HEADING = re.compile(r"^#{1,6}\s+(?:(\d+(?:\.\d+)*)\.?\s|.*\(RULES §(\d+(?:\.\d+)*)\))")
CITED = re.compile(r"§(\d+(?:\.\d+)*)")
SOURCES = ("service", "workers", "tests", "tools", "bench")


def rules_sections(rules: Path = ROOT / "docs" / "rules") -> set[str]:
    """The RULES.md section numbers that docs/rules/ has a heading for."""
    out = set()
    for page in rules.glob("*.md"):
        for _, line in _prose_lines(page.read_text(encoding="utf-8")):
            m = SECTION_HEADING.match(line)
            if m:
                out.add(m.group(1) or m.group(2))
    return out


def cited_sections(root: Path = ROOT) -> dict[str, str]:
    """Every ``§x.y`` the code cites (a line naming an RFC cites the RFC), with one place citing it."""
    out: dict[str, str] = {}
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".py", ".js") or not path.is_file():
                continue
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "RFC" not in line:
                    for num in CITED.findall(line):
                        out.setdefault(num.rstrip("."), f"{path.relative_to(root)}:{no}")
    return out


def test_every_rules_section_the_code_cites_has_a_page() -> None:
    """A `RULES §x.y` in the code leads a reader to docs/rules/, which keeps RULES.md's numbers."""
    have = rules_sections()
    missing = {num: where for num, where in cited_sections().items() if num not in have}
    assert not missing, f"sections cited in the code with no heading in docs/rules/: {missing}"
    assert {"2.6", "3.8.4", "5.5.7", "6.5.5", "8.5"} <= have  # the pages are found at all


def test_a_cited_section_with_no_page_is_caught(tmp_path: Path) -> None:
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "x.md").write_text("## Index (RULES §1.4)\n### 3.8.4 Penalty\n", encoding="utf-8")
    (tmp_path / "service").mkdir()
    (tmp_path / "service" / "m.py").write_text("# RULES §3.8.4, §1.4 and §9.9\n# RFC 9110 §15.5.6\n", encoding="utf-8")
    have = rules_sections(tmp_path / "docs" / "rules")
    assert have == {"1.4", "3.8.4"}
    assert {n for n in cited_sections(tmp_path) if n not in have} == {"9.9"}
