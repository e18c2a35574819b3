"""The compiled catalogs kept beside the ``.po`` files (i18n/catalogs.py ``compiled``): read
back as compiled, compiled afresh when a catalog changes, and never needed."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from i18n.catalogs import LOCALES_DIR, compiled

SOURCE = LOCALES_DIR / "de" / "core.po"


def fresh(path: Path) -> bytes:
    """``path`` compiled the slow way, as every start did before the cache."""
    buffer = io.BytesIO()
    with path.open("rb") as handle:
        write_mo(buffer, read_po(handle, locale="de"), use_fuzzy=False)
    return buffer.getvalue()


def test_a_catalog_is_compiled_once_and_again_when_it_changes(tmp_path: Path) -> None:
    po = tmp_path / "de" / "core.po"
    po.parent.mkdir()
    shutil.copy(SOURCE, po)
    first = compiled(po, "de")
    assert first == fresh(po)
    (kept,) = (po.parent / "__pycache__").glob("core.*.mo")
    assert kept.read_bytes() == first
    kept.write_bytes(b"not read from the catalog again")
    assert compiled(po, "de") == b"not read from the catalog again"

    entry = next(m for m in read_po(po.open("rb"), locale="de") if m.id and m.string)
    text = po.read_text(encoding="utf-8")
    po.write_text(text.replace(f'msgstr "{entry.string}"', 'msgstr "Geändert"', 1),
                  encoding="utf-8")
    again = compiled(po, "de")
    assert again == fresh(po) != first
    assert Translations(io.BytesIO(again)).gettext(entry.id) == "Geändert"
    (kept,) = (po.parent / "__pycache__").glob("core.*.mo")  # the stale one removed
    assert kept.read_bytes() == again


def test_a_folder_that_cannot_be_written_only_costs_the_time(tmp_path: Path) -> None:
    po = tmp_path / "core.po"
    shutil.copy(SOURCE, po)
    (tmp_path / "__pycache__").write_text("a file where the folder would go")
    assert compiled(po, "de") == fresh(po)
