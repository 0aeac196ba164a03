"""Show a run's ``answers.csv`` opened as a spreadsheet table, as a PNG (issue 41).

No spreadsheet program is installed here, so the file is read with Python's ``csv``
module (as any program reads it: nothing of hansa_lab's frames is used) and drawn as a
spreadsheet grid — column letters, row numbers, numbers right-aligned, long texts cut at
the cell's edge — in Debian's chromium through Playwright.

Run: .venv/bin/python scripts/make_csv_screenshot.py RUN [--out docs/screenshots/csv_as_table.png]
(RUN: a results folder holding answers.csv, e.g. from
``hansa-lab run experiments/strategy_tips.toml --games 80 --out RUN``).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import string
import tempfile
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the widest a text cell is drawn, in pixels (a spreadsheet's cut-off column)
TEXT_WIDTH = {"question": 230, "sentence": 200, "measure": 140, "condition": 150,
              "verdict": 180}

_STYLE = """
body { margin: 0; font: 12px/1.3 "DejaVu Sans", Arial, sans-serif; background: #fff; }
.bar { background: #f3f3f3; border-bottom: 1px solid #c8c8c8; padding: 6px 10px;
       color: #333; }
table { border-collapse: collapse; table-layout: fixed; }
td, th { border: 1px solid #d4d4d4; padding: 2px 5px; white-space: nowrap; overflow: hidden;
         text-overflow: ellipsis; height: 18px; }
th { background: #efefef; color: #555; font-weight: normal; text-align: center; }
tr.head td { font-weight: bold; background: #fafafa; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
th.row { width: 26px; }
"""


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _column_letter(i: int) -> str:
    letters = string.ascii_uppercase
    return letters[i] if i < 26 else letters[i // 26 - 1] + letters[i % 26]


def table_html(path: Path, rows: int) -> str:
    """The first ``rows`` data rows of the CSV file ``path`` as a spreadsheet-like page."""
    with path.open(encoding="utf-8", newline="") as f:
        records = list(csv.reader(f))
    header, body = records[0], records[1:rows + 1]
    widths = [TEXT_WIDTH.get(h, max(40, 8 * max(len(h), *(len(r[i]) for r in body)) + 22))
              for i, h in enumerate(header)]
    cols = '<col style="width:30px">' + "".join(f'<col style="width:{w}px">' for w in widths)
    letters = "<tr><th></th>" + "".join(f"<th>{_column_letter(i)}</th>"
                                        for i in range(len(header))) + "</tr>"
    lines = ['<tr class="head"><th class="row">1</th>'
             + "".join(f"<td>{escape(h)}</td>" for h in header) + "</tr>"]
    for n, record in enumerate(body, start=2):
        cells = "".join(f'<td class="num">{escape(v)}</td>' if _number(v) else
                        f'<td title="{escape(v)}">{escape(v)}</td>' for v in record)
        lines.append(f'<tr><th class="row">{n}</th>{cells}</tr>')
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><style>{_STYLE}</style>"
            f"</head><body><div class='bar'>{escape(path.name)} — UTF-8, comma-separated, "
            f"{len(records) - 1} rows, {len(header)} columns</div>"
            f"<table style='width:{30 + sum(widths)}px'><colgroup>{cols}</colgroup>"
            f"{letters}{''.join(lines)}</table>"
            "</body></html>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a results folder holding answers.csv")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" /
                        "csv_as_table.png")
    parser.add_argument("--rows", type=int, default=16, help="data rows shown (16)")
    parser.add_argument("--width", type=int, default=1800,
                        help="the widest the picture gets, in px (1800)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    page_file = Path(tempfile.mkdtemp()) / "answers.html"
    page_file.write_text(table_html(args.run / "answers.csv", args.rows), encoding="utf-8")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium,
                                     args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": args.width, "height": 200})
        page.goto(page_file.as_uri())
        width = min(args.width, page.evaluate("document.querySelector('table').offsetWidth"))
        page.screenshot(path=str(args.out), full_page=True,
                        clip={"x": 0, "y": 0, "width": width,
                              "height": page.evaluate("document.body.scrollHeight")})
        browser.close()
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
