"""Issue 26 item 4: the settings file is read through one schema and written by the safe writer. Whatever the
file holds, the window gets only values it can use (a note says what was dropped), lists are capped, a FIFO
or a device in the file's place is never waited on, read without end or written through; as root, a
settings file linked to /dev/zero leaves /dev/zero a device."""

from __future__ import annotations

import json
import logging
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st
from PySide6.QtCore import QByteArray

from explorer.ui.preferences import settings
from explorer.ui.preferences.settings_schema import MAX_RECENT, SCHEMA
from explorer.vocab import THEMES

VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["light", "dark", "evil", "en", "ja", "", "xyz", "AAAA", "!!", "classroom", "preset", "path"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.text(max_size=8) | st.sampled_from(["kind", "name", "sizes", "seed"]), inner, max_size=5)
    ),
    max_leaves=15,
)
SOURCES = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["preset", "path", "evil"]),
        "name": st.sampled_from(["classroom", "seed-toy", "nope", "/x"]),
        "sizes": st.lists(
            st.tuples(st.sampled_from(["embed_dim", "heads", "layers", "norm", "residual", "bogus"]), VALUES).map(list),
            max_size=3,
        ),
    }
)


def _fresh(folder: Path, content: bytes | None = None) -> Path:
    settings.set_folder(folder)
    settings._stores.clear()  # read the file again, as a new start of the app does
    path = settings.file_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if content is not None:
        path.write_bytes(content)
    return path


def _assert_usable() -> None:
    """Every value the window can get fits what it does with it."""
    assert settings.get("theme", "light") in THEMES
    assert settings.get("language", "en") in ("en", "ja")
    for key in ("recent_files", "recent_models", "lessons/recent"):
        value = settings.get(key, [])
        assert isinstance(value, list) and len(value) <= MAX_RECENT and all(isinstance(v, str) for v in value)
    for key in ("window/geometry", "window/state"):
        assert settings.get(key) is None or isinstance(settings.get(key), QByteArray)
    for key in ("last_dir", "session/text"):
        assert settings.get(key) is None or isinstance(settings.get(key), str)
    from explorer.ui.menus.actions import restore_session

    text, source, options = restore_session()
    if source is not None and source.kind == "preset":
        from explorer.session.open import preset_source_config

        preset_source_config(source)  # the sizes build a model


@hsettings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.dictionaries(st.sampled_from(sorted(SCHEMA)) | st.text(max_size=10), VALUES, max_size=8), source=SOURCES)
def test_any_settings_file_gives_usable_values_or_defaults(tmp_path_factory, data, source):
    data["session/source"] = source
    _fresh(tmp_path_factory.mktemp("s"), json.dumps(data).encode())
    _assert_usable()


@pytest.mark.parametrize(
    "content",
    [
        b"null",
        b"5",
        b"[1,2]",
        b"{",
        b"\xff\xfe",
        b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        json.dumps({"recent_files": [f"/f{i}" for i in range(100_000)], "theme": "evil"}).encode(),
        json.dumps(
            {"session/source": {"kind": "preset", "name": "classroom", "sizes": [["embed_dim", "xyz"]]}}
        ).encode(),
        json.dumps(
            {"session/source": {"kind": "preset", "name": "classroom", "sizes": [["no_such_size", 4]]}}
        ).encode(),
        json.dumps({"window/geometry": "not base64!", "window/state": 5, "session/text": None}).encode(),
    ],
    ids=["null", "number", "list", "cut", "binary", "deep", "100000-recent", "sizes-xyz", "unknown-size", "geometry"],
)
def test_hostile_files_are_notes_never_failures(tmp_path, caplog, content):
    _fresh(tmp_path, content)
    with caplog.at_level(logging.WARNING, logger="explorer.ui.preferences.settings"):
        _assert_usable()
    assert caplog.records, "a value that does not fit is dropped with a note"
    assert all("\n" not in r.getMessage() for r in caplog.records)


def test_a_hundred_thousand_recent_entries_keep_eight(tmp_path):
    _fresh(tmp_path, json.dumps({"recent_files": [f"/f{i}" for i in range(100_000)]}).encode())
    assert settings.recent_files() == [f"/f{i}" for i in range(MAX_RECENT)]


@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "link-to-fifo"])
def test_a_device_or_fifo_in_the_files_place_is_never_read_nor_written(tmp_path, caplog, kind):
    path = _fresh(tmp_path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link-to-fifo":
        os.mkfifo(tmp_path / "pipe")
        path.symlink_to(tmp_path / "pipe")
    else:
        if not Path("/dev/zero").exists():
            pytest.skip("no /dev/zero here")
        path.symlink_to("/dev/zero")
    before = os.lstat(path)
    with caplog.at_level(logging.WARNING, logger="explorer.ui.preferences.settings"):
        assert settings.get("theme") is None  # returns at once: nothing waited on, nothing read without end
        settings.put("theme", "dark")
        settings.flush()
    assert any("were not saved" in r.getMessage() for r in caplog.records)
    after = os.lstat(path)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino)
    assert stat.S_ISCHR(os.stat("/dev/zero").st_mode) if kind == "link-to-dev-zero" else True


def test_a_link_to_a_file_is_replaced_and_the_file_left_alone(tmp_path):
    path = _fresh(tmp_path)
    mine = tmp_path / "mine.json"
    mine.write_text('{"theme": "dark"}')
    path.symlink_to(mine)
    assert settings.get("theme") == "dark"  # read through the link
    settings.put("language", "ja")
    settings.flush()
    assert not path.is_symlink() and json.loads(path.read_text())["language"] == "ja"
    assert mine.read_text() == '{"theme": "dark"}'


def test_values_round_trip_and_other_windows_changes_are_kept(tmp_path):
    path = _fresh(tmp_path)
    settings.put("window/geometry", QByteArray(b"\x01\xd9\xd0\xcb geometry"))
    settings.add_recent("/a.npz")
    settings.flush()
    data = json.loads(path.read_text())
    data["theme"] = "dark"  # another window wrote meanwhile
    path.write_text(json.dumps(data))
    settings.put("language", "ja")
    settings.flush()
    settings._stores.clear()
    assert settings.get("window/geometry") == QByteArray(b"\x01\xd9\xd0\xcb geometry")
    assert (settings.get("theme"), settings.get("language"), settings.recent_files()) == ("dark", "ja", ["/a.npz"])


def test_the_old_ini_file_is_read_once_after_the_same_checks(tmp_path):
    from PySide6.QtCore import QSettings

    path = _fresh(tmp_path)
    ini = path.with_suffix(".ini")
    old = QSettings(str(ini), QSettings.Format.IniFormat)
    old.setValue("theme", "dark")
    old.setValue("recent_files", json.dumps(["/x.npz"] * 3 + [f"/{i}" for i in range(20)]))
    old.setValue("language", "klingon")
    old.sync()
    del old
    settings._stores.clear()
    assert settings.get("theme") == "dark" and settings.get("language") is None
    assert len(settings.recent_files()) == MAX_RECENT and settings.recent_files()[0] == "/x.npz"


def test_a_fifo_named_like_the_old_ini_is_not_opened(tmp_path):
    path = _fresh(tmp_path)
    os.mkfifo(path.with_suffix(".ini"))
    assert settings.get("theme") is None  # QSettings would wait on it forever


def test_a_saved_text_past_the_limit_is_cut_where_a_trace_cuts_it(tmp_path):
    from explorer.config import MAX_TEXT_CHARS

    _fresh(tmp_path)
    settings.put("session/text", "a" * (MAX_TEXT_CHARS + 10))
    assert len(settings.get("session/text")) == MAX_TEXT_CHARS


def test_undecodable_paths_and_text_are_kept_as_they_were(tmp_path):
    import os

    odd = os.fsdecode(b"/data/\xff\xfe.npz")
    _fresh(tmp_path)
    settings.add_recent(odd)
    settings.put("session/text", "caf\udce9 講義")
    settings.flush()
    settings._stores.clear()
    assert settings.recent_files() == [odd] and settings.get("session/text") == "caf\udce9 講義"
