"""The one module that writes and reads whole files: atomic, never destroying, bounded."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from delvetui import fileio
from delvetui.errors import (
    DelveError,
    ExpeditionExists,
    FileRefused,
    StorageFailed,
    TargetExists,
)
from delvetui.procedure.registry import find
from delvetui.session import Expedition


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_a_new_file_is_written_whole_and_nothing_else_is_left(tmp_path: Path) -> None:
    target = tmp_path / "log.md"
    assert fileio.write_file(target, "new ✓\n") == target
    assert target.read_text(encoding="utf-8") == "new ✓\n"
    assert listing(tmp_path) == ["log.md"]


def test_an_existing_file_is_replaced_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "log.md"
    target.write_text("old")
    with pytest.raises(TargetExists, match="already exists; nothing was written"):
        fileio.write_file(target, "new")
    assert target.read_text() == "old"
    fileio.write_file(target, "new", replace=True)
    assert target.read_text() == "new"
    assert listing(tmp_path) == ["log.md"]


def test_a_replaced_file_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "secret.md"
    target.write_text("old")
    target.chmod(0o600)
    fileio.write_file(target, "new", replace=True)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_new_file_follows_the_umask_which_is_never_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Changing the umask to read it races every other thread creating files (an export
    # running in a worker while the table saves its preferences).
    def no_umask(mask: int) -> int:
        raise AssertionError("the process umask was changed")

    old = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", no_umask)
        from delvetui.application.files import Prefs

        Prefs().save()
        made = fileio.write_file(tmp_path / "log.md", "x")
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert stat.S_IMODE(made.stat().st_mode) == 0o640


def test_writes_from_two_threads_keep_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:

        def write(index: int) -> None:
            for round_ in range(20):
                fileio.write_file(tmp_path / f"{index}-{round_}.txt", "x")

        threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert os.umask(0o077) == 0o077
    finally:
        os.umask(old)
    assert {stat.S_IMODE(p.stat().st_mode) for p in tmp_path.iterdir()} == {0o600}


def test_a_failed_write_leaves_the_old_file_and_never_names_the_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "log.md"
    target.write_text("old")

    def full(source: object, *args: object) -> None:
        raise OSError(28, "No space left on device", str(source))

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(StorageFailed) as failed:
        fileio.write_file(target, "new", replace=True)
    assert (
        str(failed.value)
        == f"Cannot write {target} (No space left on device); nothing was written."
    )
    assert target.read_text() == "old"
    assert listing(tmp_path) == ["log.md"]


def test_writing_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DelveError, match=r"the folder .*missing does not exist; nothing was"):
        fileio.write_file(tmp_path / "missing" / "log.md", "text")


def test_what_is_not_a_regular_file_is_never_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target, kind in ((folder, "a folder"), (fifo, "a FIFO"), (Path("/dev/null"), "a device")):
        with pytest.raises(FileRefused, match=f"is {kind}.*never replaced"):
            fileio.write_file(target, "x", replace=True)
    assert folder.is_dir() and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_an_expedition_file_is_never_replaced(tmp_path: Path) -> None:
    path = tmp_path / "crypt.delve"
    Expedition.create(path, find("delving"), seed=1).close()
    copy = tmp_path / "crypt-backup"
    copy.write_bytes(path.read_bytes())
    before = path.read_bytes()
    for target in (path, copy):
        with pytest.raises(FileRefused, match="is an expedition file"):
            fileio.write_file(target, "# log", replace=True)
    assert path.read_bytes() == before and copy.read_bytes() == before


def test_a_symbolic_link_is_written_through_and_kept(tmp_path: Path) -> None:
    real = tmp_path / "real.md"
    real.write_text("old")
    link = tmp_path / "link.md"
    link.symlink_to("real.md")
    assert fileio.write_file(link, "new", replace=True) == real
    assert link.is_symlink() and real.read_text() == "new"
    dangling = tmp_path / "dangling.md"
    dangling.symlink_to("nowhere.md")
    with pytest.raises(FileRefused, match=r"symbolic link to 'nowhere\.md', which does not exist"):
        fileio.write_file(dangling, "x")
    assert not (tmp_path / "nowhere.md").exists()


def test_create_new_never_replaces_and_leaves_nothing_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "made"

    def build(temp: Path) -> None:
        temp.write_text("whole")

    fileio.create_new(target, build)
    assert target.read_text() == "whole"
    with pytest.raises(FileExistsError):
        fileio.create_new(target, build)
    assert target.read_text() == "whole" and listing(tmp_path) == ["made"]

    def fail(temp: Path) -> None:
        temp.write_text("half")
        raise StorageFailed(f"Saving to {temp} failed (database or disk is full).")

    with pytest.raises(StorageFailed) as failed:
        fileio.create_new(tmp_path / "other", fail)
    assert str(failed.value) == f"Saving to {tmp_path / 'other'} failed (database or disk is full)."
    assert listing(tmp_path) == ["made"]


def test_an_expedition_made_under_a_taken_name_or_on_a_refusing_disk_says_so(
    tmp_path: Path,
) -> None:
    """The table's creation and the import share one way to say what went wrong."""
    target = tmp_path / "crypt.delve"
    target.write_text("theirs")

    def build(temp: Path) -> None:
        temp.write_text("ours")

    with pytest.raises(ExpeditionExists, match=r"^crypt is taken$"):
        fileio.create_expedition(target, build, taken="crypt is taken")
    assert target.read_text() == "theirs" and listing(tmp_path) == ["crypt.delve"]

    def refused(temp: Path) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(StorageFailed) as failed:
        fileio.create_expedition(tmp_path / "new.delve", refused, taken="taken")
    assert str(failed.value) == (
        f"Creating {tmp_path / 'new.delve'} failed (No space left on device); nothing was saved."
    )
    assert listing(tmp_path) == ["crypt.delve"]


def test_reads_refuse_what_is_not_a_regular_file_before_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "x.json"
    os.mkfifo(fifo)
    with pytest.raises(FileRefused, match="is not a file but a FIFO"):
        fileio.read_regular(fifo, 100)  # would block forever if it were opened for reading
    for device in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(FileRefused, match="is not a file but a device"):
            fileio.read_regular(Path(device), 100)
    with pytest.raises(FileRefused, match="is not a file but a folder"):
        fileio.read_regular(tmp_path, 100)


def test_reads_are_bounded(tmp_path: Path) -> None:
    big = tmp_path / "big"
    with big.open("wb") as out:
        out.truncate(50 * 1024 * 1024)  # sparse: takes no room
    with pytest.raises(FileRefused, match="larger than 1,000 bytes"):
        fileio.read_regular(big, 1000)
    assert fileio.read_regular(big, 16, exact=False) == b"\0" * 16
