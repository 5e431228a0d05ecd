"""serve/uploads.py: a student's upload never writes outside its folder,
and a hostile one is refused with one line naming the problem and leaves
the folder empty. The archives are built here with zipfile, then bent by
hand (a NUL in a name, a header that lies about its size) where zipfile
would not write what an attacker can."""
from __future__ import annotations

import io
import os
import stat
import struct
import tempfile
import warnings
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clinea.serve.uploads import (
    MAX_MEMBERS,
    MAX_UNPACKED_BYTES,
    MAX_UPLOAD_BYTES,
    UploadRefused,
    store_upload,
)

BOT = b"import sys\nfor line in sys.stdin:\n    print(0, flush=True)\n"
UNIX = 3  # ZipInfo.create_system of an archive made on Unix: its external attributes carry a mode
LOCAL_HEADER, CENTRAL_HEADER = b"PK\x03\x04", b"PK\x01\x02"
#: where a header keeps the member's unpacked size (APPNOTE 4.3.7, 4.3.12)
LOCAL_SIZE_AT, CENTRAL_SIZE_AT = 22, 24


def zip_of(*members: tuple[str | zipfile.ZipInfo, bytes]) -> bytes:
    """An archive of (name or ZipInfo, bytes), deflated; duplicates allowed."""
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name, and writes it
        for name, data in members:
            archive.writestr(name, data)
    return buffer.getvalue()


def typed(name: str, kind: int) -> zipfile.ZipInfo:
    """A member whose Unix mode says it is of file type `kind` (S_IFLNK ...)."""
    info = zipfile.ZipInfo(name)
    info.create_system = UNIX
    info.external_attr = (kind | 0o644) << 16
    return info


def with_declared_size(archive: bytes, size: int) -> bytes:
    """`archive` (of one member) with both its headers claiming `size` bytes unpacked."""
    data = bytearray(archive)
    for signature, offset in ((LOCAL_HEADER, LOCAL_SIZE_AT), (CENTRAL_HEADER, CENTRAL_SIZE_AT)):
        at = data.index(signature)
        struct.pack_into("<I", data, at + offset, size)
    return bytes(data)


def everything_under(folder: Path) -> list[Path]:
    """Every file, folder and link under `folder`, links not followed."""
    found = []
    for root, folders, files in os.walk(folder, followlinks=False):
        found += [Path(root, name) for name in folders + files]
    return found


def refusal(data: bytes, filename: str, dest: Path, entry: str | None = None) -> str:
    """The one-line message refusing the upload; dest is left empty."""
    with pytest.raises(UploadRefused) as refused:
        store_upload(data, filename, dest, entry)
    assert everything_under(dest) == []
    message = str(refused.value)
    assert message and "\n" not in message
    return message


@pytest.fixture
def dest(tmp_path):
    folder = tmp_path / "course" / "bots" / "7"
    folder.mkdir(parents=True)
    return folder


# -- what is accepted


def test_a_single_file_is_written_as_the_entry_point(dest):
    entry = store_upload(BOT, "mybot.py", dest)
    assert entry == dest / "mybot.py"
    assert entry.read_bytes() == BOT
    assert entry.stat().st_mode & 0o777 == 0o755
    assert everything_under(dest) == [entry]


def test_an_archive_is_unpacked_with_its_folders_and_named_entry(dest):
    data = zip_of(("play.py", BOT), ("lib/", b""), ("lib/tables.py", b"T = 1\n"), ("lib/deep/x.bin", b"\0\1"))
    entry = store_upload(data, "bot.zip", dest, entry="play.py")
    assert entry == dest / "play.py"
    assert (dest / "lib" / "tables.py").read_bytes() == b"T = 1\n"
    assert (dest / "lib" / "deep" / "x.bin").read_bytes() == b"\0\1"
    # only the entry runs as a program; the archive's own modes are not taken
    assert (dest / "lib" / "tables.py").stat().st_mode & 0o7777 == 0o644


def test_a_zipped_folder_finds_its_main_py(dest):
    entry = store_upload(zip_of(("mybot/main.py", BOT), ("mybot/util.py", b"")), "mybot.zip", dest)
    assert entry == dest / "mybot" / "main.py"


# -- each hostile kind, refused with its name


def test_dot_dot_is_refused(dest):
    message = refusal(zip_of(("../evil.py", BOT)), "bot.zip", dest)
    assert "'../evil.py'" in message and "'..' is not allowed" in message
    assert not (dest.parent / "evil.py").exists()


def test_dot_dot_inside_a_name_is_refused(dest):
    message = refusal(zip_of(("main.py", BOT), ("lib/../../../evil.py", BOT)), "bot.zip", dest)
    assert "'..' is not allowed" in message


def test_an_absolute_path_is_refused(dest):
    target = dest.parent / "evil.py"
    message = refusal(zip_of(("main.py", BOT), (str(target), BOT)), "bot.zip", dest)
    assert "absolute path" in message and "evil.py" in message
    assert not target.exists()


def test_a_drive_letter_is_refused(dest):
    assert "drive letter" in refusal(zip_of(("C:/evil.py", BOT)), "bot.zip", dest)


def test_a_backslash_path_is_refused(dest):
    assert "'\\\\' is not allowed" in refusal(zip_of(("main.py", BOT), ("..\\evil.py", BOT)), "bot.zip", dest)


def test_a_symbolic_link_is_refused(dest):
    data = zip_of(("main.py", BOT), (typed("secrets", stat.S_IFLNK), b"/etc/shadow"))
    assert "'secrets'" in (message := refusal(data, "bot.zip", dest)) and "symbolic link" in message


@pytest.mark.parametrize("kind", [stat.S_IFCHR, stat.S_IFBLK], ids=["character", "block"])
def test_a_device_file_is_refused(dest, kind):
    data = zip_of(("main.py", BOT), (typed("null", kind), b""))
    assert "'null'" in (message := refusal(data, "bot.zip", dest)) and "device file" in message


def test_a_fifo_is_refused(dest):
    data = zip_of(("main.py", BOT), (typed("pipe", stat.S_IFIFO), b""))
    assert "'pipe'" in (message := refusal(data, "bot.zip", dest)) and "FIFO" in message


def test_a_zip_bomb_whose_header_lies_about_its_size_is_refused(dest):
    # 2 MiB of zeros deflate to 2 KiB; the headers say 100 bytes, which
    # zipfile would trust and stop at (then call the member corrupt)
    data = with_declared_size(zip_of(("main.py", bytes(2 * 1024 * 1024))), 100)
    message = refusal(data, "bot.zip", dest)
    assert "'main.py'" in message and "100 bytes its header declares" in message and "zip bomb" in message


def test_a_zip_bomb_past_the_total_is_refused_without_unpacking_it_all(dest):
    data = with_declared_size(zip_of(("main.py", bytes(MAX_UNPACKED_BYTES + 4096))), 100)
    assert len(data) < MAX_UPLOAD_BYTES
    message = refusal(data, "bot.zip", dest)
    assert "more than 16 MiB" in message and "zip bomb" in message


def test_a_zip_bomb_that_declares_its_size_is_refused(dest):
    message = refusal(zip_of(("main.py", BOT), ("zeros", bytes(MAX_UNPACKED_BYTES + 1))), "bot.zip", dest)
    assert f"declares {len(BOT) + MAX_UNPACKED_BYTES + 1} bytes" in message and "16 MiB" in message


def test_a_member_expanding_too_many_fold_is_refused(dest):
    message = refusal(zip_of(("main.py", BOT), ("zeros", bytes(4 * 1024 * 1024))), "bot.zip", dest)
    assert "'zeros'" in message and "200 times its compressed size" in message


def test_too_many_members_are_refused(dest):
    data = zip_of(*((f"m{number}.py", b"") for number in range(MAX_MEMBERS + 1)))
    assert f"{MAX_MEMBERS + 1} members, at most {MAX_MEMBERS}" in refusal(data, "bot.zip", dest)


def test_too_large_an_upload_is_refused(dest):
    message = refusal(b"#" * (MAX_UPLOAD_BYTES + 1), "bot.py", dest)
    assert f"{MAX_UPLOAD_BYTES + 1} bytes" in message and "at most 1 MiB" in message


def test_duplicate_names_are_refused(dest):
    message = refusal(zip_of(("main.py", BOT), ("main.py", b"print('the other')\n")), "bot.zip", dest)
    assert "'main.py'" in message and "duplicate names" in message


def test_names_differing_only_in_case_are_refused(dest):
    assert "duplicate names" in refusal(zip_of(("main.py", BOT), ("Main.py", BOT)), "bot.zip", dest)


def test_a_file_that_is_also_a_folder_is_refused(dest):
    assert "both a file and a folder" in refusal(zip_of(("main.py", BOT), ("main.py/x", BOT)), "bot.zip", dest)


def test_a_missing_entry_is_refused(dest):
    message = refusal(zip_of(("play.py", BOT)), "bot.zip", dest, entry="main2.py")
    assert "entry 'main2.py' is not a file in the archive" in message and "play.py" in message


def test_an_archive_without_main_or_bot_asks_for_its_entry(dest):
    message = refusal(zip_of(("play.py", BOT)), "bot.zip", dest)
    assert "no main.py or bot.py" in message and "entry" in message


def test_an_entry_outside_the_archive_is_refused(dest):
    assert "is not a file in the archive" in refusal(zip_of(("main.py", BOT)), "bot.zip", dest, entry="../main.py")


def test_a_nul_in_a_member_name_is_refused(dest):
    # zipfile cuts a name at a NUL when it writes one: put it in by hand
    data = zip_of(("main.py", BOT), ("evilXname.py", BOT)).replace(b"evilXname", b"evil\0name")
    assert "control characters" in refusal(data, "bot.zip", dest)


def test_an_encrypted_member_is_refused(dest):
    data = bytearray(zip_of(("main.py", BOT)))
    for signature, flags_at in ((LOCAL_HEADER, 6), (CENTRAL_HEADER, 8)):
        data[data.index(signature) + flags_at] |= 0x1
    assert "encrypted" in refusal(bytes(data), "bot.zip", dest)


def test_what_is_not_an_archive_is_refused(dest):
    assert "not a readable zip archive" in refusal(BOT, "bot.zip", dest)


@pytest.mark.parametrize("filename, problem", [
    ("", "is not allowed as a name"), ("..", "is not allowed as a name"), (".", "is not allowed as a name"),
    ("../bot.py", "'/' is not allowed"), ("/tmp/bot.py", "'/' is not allowed"), ("a\\bot.py", "'\\\\' is not"),
    ("bot\0.py", "control characters"), ("bot\n.py", "control characters"), ("tob\u202eyp.py", "control characters"),
    ("x" * 300, "300 bytes long"),
])
def test_a_bad_file_name_is_refused(dest, filename, problem):
    assert problem in refusal(BOT, filename, dest)


def test_an_entry_for_a_single_file_is_refused(dest):
    assert "only in a .zip" in refusal(BOT, "bot.py", dest, entry="other.py")


# -- whatever the names and bytes


PARTS = st.one_of(st.sampled_from(["..", ".", "", "a", "b.py", "main.py", "C:", "\\", "..\\..", "\n", " "]),
                  st.text(max_size=6))
KINDS = st.sampled_from([0, stat.S_IFREG, stat.S_IFDIR, stat.S_IFLNK, stat.S_IFCHR, stat.S_IFBLK, stat.S_IFIFO,
                         stat.S_IFSOCK])


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_member_name_makes_a_file_appear_outside_dest(data):
    """Names of any parts (`..`, absolute ones into the folder around dest,
    drive letters, control characters) with any file type: either the files
    land inside dest as the archive lists them, or the upload is refused and
    dest stays empty; nothing appears next to dest, no link, no device."""
    with tempfile.TemporaryDirectory() as around:
        dest = Path(around, "dest")
        dest.mkdir()
        prefixes = st.sampled_from(["", "/", around + "/", "../", "./"])
        names = st.builds(lambda prefix, parts, slash: prefix + "/".join(parts) + slash,
                          prefixes, st.lists(PARTS, min_size=1, max_size=4), st.sampled_from(["", "/"]))
        members = data.draw(st.lists(st.tuples(names, KINDS, st.binary(max_size=20)), min_size=1, max_size=5))
        infos = []
        for name, kind, content in members:
            info = typed(name, kind) if kind else zipfile.ZipInfo(name)
            infos.append((info, content))
        entry = data.draw(st.one_of(st.none(), st.sampled_from([name for name, _, _ in members])))
        try:
            returned = store_upload(zip_of(*infos), "upload.zip", dest, entry)
        except UploadRefused as refused:
            assert "\n" not in str(refused)
            assert everything_under(dest) == []
            returned = None
        assert all(path == dest or dest in path.parents for path in everything_under(Path(around)))
        for path in everything_under(Path(around)):
            assert stat.S_ISREG(path.lstat().st_mode) or stat.S_ISDIR(path.lstat().st_mode)
        if returned is not None:
            assert dest in returned.parents and returned.is_file()
            written = {str(path.relative_to(dest)): path.read_bytes()
                       for path in everything_under(dest) if path.is_file()}
            # the reference: what the archive lists as files, under their own names
            assert written == {info.filename: content for info, content in infos if not info.is_dir()}


@settings(max_examples=150)
@given(cuts=st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8),
       truncate=st.integers(0, 10_000))
def test_a_damaged_archive_is_stored_or_refused_never_an_error(cuts, truncate):
    """Bytes of a real archive overwritten and cut anywhere: store_upload
    answers a path inside dest or UploadRefused, nothing else, and leaves
    nothing behind when it refuses."""
    data = bytearray(zip_of(("main.py", BOT), ("lib/", b""), ("lib/t.py", b"T = 2\n" * 50)))
    for at, value in cuts:
        data[at % len(data)] = value
    with tempfile.TemporaryDirectory() as around:
        dest = Path(around, "dest")
        dest.mkdir()
        try:
            returned = store_upload(bytes(data[:max(truncate, 1)]), "bot.zip", dest)
        except UploadRefused as refused:
            assert "\n" not in str(refused)
            assert everything_under(dest) == []
        else:
            assert dest in returned.parents and returned.is_file()
        assert all(path == dest or dest in path.parents for path in everything_under(Path(around)))
