"""Prose that quotes a generated table may not quote a number the table does not have (issue 31
item 1; docs/results/README.md, "Quoting a generated table").

A Markdown file declares the generated files it quotes with one marker line (paths from the
checkout's root, several allowed):

    <!-- quotes: docs/results/mircc.md docs/results/mircc-beyond.md -->

A page whose other sections quote no generated file may instead scope the check to one section:
a line `<!-- quotes-section: FILE ... -->` below a heading applies the same rules from that line to
the next heading of the same or a higher level (or the end of the page).

From then on, in that file (or section), every number of
- a block (paragraph, list item or table row) that carries a verdict word (VERDICT_WORDS:
  reproduced, met, beats, direction/result holds, tie, ...), and
- an explicitly marked span `<!-- q -->...<!-- /q -->` anywhere,
must occur in one of the quoted files. The prose may round a number with decimals or a
percentage (0.17 and 17 % quote 0.1681; 18 % quotes -18.1%; 584 quotes 583.5), not change it;
a whole number below 100 that is not a percentage (a count: "11 of 17") must be there as
written; signs are ignored ("85% lower" quotes -85%). Not counted as quoted numbers: fenced code,
inline code, link targets, HTML comments, ISO dates, numbers inside names (802.11b, C1, ns-3,
IV-B) and the number after Fig./Table/Sec./issue/item/seed(s) (a reference, not a result).

    python3 -m ndnlab.quotes [FILE.md ...]   # default: every docs/**/*.md; exit 1 on a mismatch
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
MARKER = re.compile(r"<!--\s*quotes:\s*(.*?)\s*-->")
SECTION_MARKER = re.compile(r"<!--\s*quotes-section:\s*(.*?)\s*-->")
HEADING = re.compile(r"^(#{1,6})\s")
SPAN = re.compile(r"<!--\s*q\s*-->(.*?)<!--\s*/q\s*-->", re.S)
VERDICT_WORDS = re.compile(
    r"\b(reproduced|reproduces|over-reproduced|under-reproduced|met|beats?|reversed|ties?|"
    r"(?:direction|result|claim|target)s? holds?|no difference|matches)\b", re.I)
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?!\w|\.\d)")
# what is not a quoted number, removed before numbers are read
_NOT_NUMBERS = [
    re.compile(r"```.*?```", re.S),                      # fenced code
    re.compile(r"`[^`\n]*`"),                            # inline code
    re.compile(r"<!--.*?-->", re.S),                     # comments (markers, spans' tags)
    re.compile(r"\]\([^)\s]*\)"),                        # link targets
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),                # dates
    re.compile(r"\b(?:Figs?|Tables?|Tab|Secs?|Section|Eqs?|issues?|items?|seeds?)\.?\s*"
               r"\d+(?:\s*(?:,|and|-|to)\s*\d+)*", re.I),  # references, seed lists
    re.compile(r"[A-Za-z]+[-_]\d+"),                     # ns-3, IV-2, name_2
]


def numbers(text, prose=True):
    """[(digits as written, value, decimals, is a percentage)] of the numbers in `text`. `prose`: leave out what
    _NOT_NUMBERS names; otherwise only code fences and comments (a table's own text)."""
    patterns = _NOT_NUMBERS if prose else _NOT_NUMBERS[:1] + _NOT_NUMBERS[2:3]
    for pattern in patterns:
        text = pattern.sub(" ", text)
    text = re.sub(r"(?<![\w.])x(?=\d)", " ", text)   # x1.24: a factor
    text = re.sub(r"(?<=\d)x\b", " ", text)          # 5x
    out = []
    for m in NUMBER.finditer(text):
        whole = m.group(1).replace(",", "")
        frac = m.group(2) or ""
        # a percentage: "12 %", "12%" and each end of "12-46 %"
        percent = bool(re.match(r"(?:\s?%|(?:-|\s?to\s?)[\d.]+\s?%)", text[m.end():]))
        out.append((m.group(0), float(whole + frac), max(len(frac) - 1, 0), percent))
    return out


def blocks(text):
    """The Markdown blocks of `text`: paragraphs, list items and table rows, as (first line
    number, text); fenced code is one block of its own."""
    out, current, start, fence = [], [], 0, False
    for i, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
            current.append(line)
            continue
        if fence:
            current.append(line)
            continue
        new = (not stripped or stripped.startswith(("|", "#")) or re.match(r"([-*+]|\d+\.)\s", stripped))
        if new and current:
            out.append((start, "\n".join(current)))
            current = []
        if stripped:
            if not current:
                start = i
            current.append(line)
            if stripped.startswith(("|", "#")):
                out.append((start, "\n".join(current)))
                current = []
    if current:
        out.append((start, "\n".join(current)))
    return out


def quoted_files(text):
    """The files the marker lines of `text` name, in order."""
    files = []
    for m in MARKER.finditer(CODE.sub(" ", text)):  # a marker shown as code is an example
        files += [f for f in m.group(1).split() if f not in files]
    return files


def _contains(table_values, value, decimals, percent=False):
    """Whether a table value rounds to `value` at `decimals` places (half either way); a
    percentage may quote a fraction (12 % quotes 0.1206). A whole number below 100 that is not
    a percentage (a count, "11 of 17") must be in the table as it is: 12 does not quote 12.39,
    584 quotes 583.5."""
    if decimals == 0 and not percent and abs(value) < 100:
        return any(abs(abs(t) - abs(value)) < 1e-9 for t in table_values)
    half = 0.5 * 10 ** -decimals + 1e-9
    for t in table_values:
        if abs(abs(t) - abs(value)) <= half or (percent and abs(abs(t) * 100 - abs(value)) <= half):
            return True
    return False


def check_text(text, table_texts, where="prose"):
    """Mismatches [(line, number, context)] of prose `text` against the generated files' texts."""
    table_values = {v for t in table_texts for _, v, _, _ in numbers(t, prose=False)}
    problems = []
    for line, block in blocks(text):
        block = CODE.sub(" ", block)
        chunks = [m.group(1) for m in SPAN.finditer(block)]
        rest = SPAN.sub(" ", block)
        if VERDICT_WORDS.search(re.sub(r"<!--.*?-->", " ", rest, flags=re.S)):
            chunks.append(rest)
        for chunk in chunks:
            for written, value, decimals, percent in numbers(chunk):
                if not _contains(table_values, value, decimals, percent):
                    context = " ".join(chunk.split())
                    problems.append((line, written, context[:160]))
    return problems


def quoted_sections(text):
    """[(first line number, section text, files)] of the section markers of `text`: from the
    marker line to the next heading of the same or a higher level than the one above it."""
    lines = text.splitlines()
    out, level, fence = [], 7, False
    for i, line in enumerate(lines):
        if line.strip().startswith("```"):
            fence = not fence
        if fence:
            continue
        h = HEADING.match(line)
        if h:
            level = len(h.group(1))
        m = SECTION_MARKER.search(CODE.sub(" ", line))
        if not m:
            continue
        end = next((j for j in range(i + 1, len(lines))
                    if (hm := HEADING.match(lines[j])) and len(hm.group(1)) <= level), len(lines))
        out.append((i + 1, "\n".join(lines[i:end]), m.group(1).split()))
    return out


def _tables(path, files, root, problems):
    tables = []
    for f in files:
        p = pathlib.Path(root) / f
        if not p.is_file():
            problems.append((str(path), 0, f, "quoted file does not exist"))
            continue
        tables.append(p.read_text())
    return tables


def check_file(path, root=ROOT):
    """Mismatches of one Markdown file [(file, line, number, context)]; [] if it has no
    marker. A quoted file that does not exist is a mismatch of its own."""
    path = pathlib.Path(path)
    text = path.read_text()
    problems = []
    files = quoted_files(text)
    if files:
        tables = _tables(path, files, root, problems)
        problems += [(str(path), line, n, ctx) for line, n, ctx in check_text(text, tables)]
    for first, section, section_files in quoted_sections(text):
        tables = _tables(path, section_files, root, problems)
        problems += [(str(path), first + line - 1, n, ctx) for line, n, ctx in check_text(section, tables)]
    return problems


def markdown_files(root=ROOT):
    """Every Markdown file under docs/ and experiments/."""
    root = pathlib.Path(root)
    return sorted(list((root / "docs").rglob("*.md")) + list((root / "experiments").glob("*/*.md")))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    files = [pathlib.Path(a) for a in argv] or markdown_files()
    problems, checked = [], 0
    for f in files:
        if quoted_files(f.read_text()) or quoted_sections(f.read_text()):
            checked += 1
        problems += check_file(f)
    for path, line, n, ctx in problems:
        print(f"{path}:{line}: {n} not in the quoted generated file(s): {ctx}")
    print(f"quotes: {checked} file(s) with a quotes marker, {len(problems)} mismatch(es)")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
