"""A student's upload, checked and written into its own folder.

An upload is data until a sandboxed seat runs it, and the server is the one
thing that unpacks it outside a seat: a name or an archive member must not
reach past the folder (`../`, an absolute path, a drive letter, a symbolic
link), must not make the server create a device file or a FIFO, and a zip
bomb must not fill the disc or the memory. So nothing is trusted that the
archive declares: every member's name and file type is checked before
anything is written, every member is decompressed with a bound counted on
the bytes that come out (a header's sizes can lie), and files are created
with O_EXCL in folders this module made. A refused upload writes nothing.
"""
from __future__ import annotations

import copy
import io
import stat
import unicodedata
import zipfile
import zlib
from pathlib import Path

from clinea.bounded import KIB, MIB, TooLarge, read_bounded, size_text

#: the request body of one upload: a bot's source with its tables fits
MAX_UPLOAD_BYTES = 1 * MIB
#: all members of an archive, unpacked
MAX_UNPACKED_BYTES = 16 * MIB
MAX_MEMBERS = 256
#: a member larger than RATIO_FLOOR that unpacks to more than MAX_RATIO times
#: its compressed size is a bomb's filling, not a bot's source or tables
MAX_RATIO = 200
RATIO_FLOOR = 1 * MIB
#: a name part, in UTF-8 bytes, as Linux's file systems allow
MAX_NAME_BYTES = 255
MAX_PATH_BYTES = 1 * KIB
#: tried in this order when the upload names no entry point
DEFAULT_ENTRIES = ("main.py", "bot.py")
SHOWN_NAME_CHARS = 80
#: Unicode categories refused in names: control, format, line and paragraph separators
INVISIBLE = ("Cc", "Cf", "Zl", "Zp")


class UploadRefused(ValueError):
    """str(exc) is one clear line shown to the student (names the bad member / size and the limit)."""


def shown(name: str) -> str:
    """A name quoted on one line: control characters escaped, a long name cut
    in its middle (its end is the file the student will recognise)."""
    text = repr(name)
    half = SHOWN_NAME_CHARS // 2
    return text if len(text) <= SHOWN_NAME_CHARS else text[:half] + "..." + text[-half:]


def check_part(part: str, what: str) -> None:
    """Refuses a part of a name (between slashes) that could name anything
    but a file inside the folder, or that a file system would not take."""
    if part in ("", ".", ".."):
        raise UploadRefused(f"{what}: {shown(part)} is not allowed as a name or a part of one")
    # format characters too: a right-to-left override (U+202E) makes a page
    # show a name other than the file's
    if any(unicodedata.category(char) in INVISIBLE for char in part):
        raise UploadRefused(f"{what}: control characters (NUL, newline, direction marks ...) are not allowed in names")
    for char in ("/", "\\", ":"):
        if char in part:
            raise UploadRefused(f"{what}: {char!r} is not allowed in a name (a path or a drive letter)")
    try:
        length = len(part.encode("utf-8"))
    except UnicodeEncodeError:
        raise UploadRefused(f"{what}: not a name that can be written as UTF-8") from None
    if length > MAX_NAME_BYTES:
        raise UploadRefused(f"{what}: a name part is {length} bytes long, at most {MAX_NAME_BYTES} are allowed")


def member_parts(info: zipfile.ZipInfo) -> tuple[str, ...]:
    """The parts of a member's name (a folder's without its final slash),
    checked, and its file type refused unless a plain file or a folder.
    The name is the archive's own (zipfile cuts the one it shows at a NUL)."""
    name = info.orig_filename
    what = f"member {shown(name)}"
    if name.startswith(("/", "\\")):
        raise UploadRefused(f"{what}: an absolute path is not allowed")
    if len(name.encode("utf-8", "replace")) > MAX_PATH_BYTES:
        raise UploadRefused(f"{what}: a name longer than {MAX_PATH_BYTES} bytes is not allowed")
    parts = tuple(name.removesuffix("/").split("/"))
    for part in parts:
        check_part(part, what)
    # the high 16 bits are the Unix mode whenever an archiver stored one;
    # zipfile itself would write a symbolic link's target as a plain file
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        raise UploadRefused(f"{what}: a symbolic link is not allowed")
    if kind in (stat.S_IFCHR, stat.S_IFBLK):
        raise UploadRefused(f"{what}: a device file is not allowed")
    if kind == stat.S_IFIFO:
        raise UploadRefused(f"{what}: a FIFO (named pipe) is not allowed")
    if kind == stat.S_IFSOCK:
        raise UploadRefused(f"{what}: a socket is not allowed")
    if kind == stat.S_IFDIR and not info.is_dir():
        raise UploadRefused(f"{what}: marked as a folder but its name does not end with '/'")
    if info.flag_bits & 0x1:
        raise UploadRefused(f"{what}: encrypted members are not allowed")
    return parts


def reason(error: Exception) -> str:
    """zipfile's or zlib's complaint, on one line."""
    return str(error).splitlines()[0] if str(error).strip() else type(error).__name__


def unpacked(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> bytes:
    """A member's bytes, decompressed up to `budget` + 1 whatever its header
    declares (zipfile would stop at the declared size, and a bomb declares a
    small one): more than `budget` is the archive's total refused, more than
    declared is a lying header refused."""
    what = f"member {shown(info.orig_filename)}"
    bounded = copy.copy(info)
    # one past the budget + 1 that read_bounded asks for: zipfile checks the
    # CRC where it thinks the member ends, which the cut is not
    bounded.file_size = budget + 2
    try:
        with archive.open(bounded) as source:
            data = read_bounded(source, what, budget)
    except TooLarge:
        raise UploadRefused(f"the archive unpacks to more than {size_text(MAX_UNPACKED_BYTES)} "
                            f"(at {what}), the most allowed: a zip bomb?") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError) as error:
        raise UploadRefused(f"{what}: cannot be unpacked ({reason(error)})") from None
    if len(data) > info.file_size:
        raise UploadRefused(f"{what}: unpacks to more than the {info.file_size} bytes its header declares "
                            "(a zip bomb?)")
    if len(data) > RATIO_FLOOR and len(data) > MAX_RATIO * max(info.compress_size, 1):
        raise UploadRefused(f"{what}: unpacks to more than {MAX_RATIO} times its compressed size "
                            f"(a zip bomb?), at most {MAX_RATIO} is allowed past {size_text(RATIO_FLOOR)}")
    return data


def archive_members(data: bytes) -> tuple[dict[tuple[str, ...], bytes], set[tuple[str, ...]]]:
    """The files (parts -> bytes) and folders of a zip archive, everything
    checked; UploadRefused at the first problem."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, ValueError, EOFError) as error:
        raise UploadRefused(f"not a readable zip archive ({reason(error)})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_MEMBERS:
            raise UploadRefused(f"the archive has {len(infos)} members, at most {MAX_MEMBERS} are allowed")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_UNPACKED_BYTES:
            raise UploadRefused(f"the archive declares {declared} bytes unpacked, at most "
                                f"{size_text(MAX_UNPACKED_BYTES)} are allowed: a zip bomb?")
        files: dict[tuple[str, ...], bytes] = {}
        folders: set[tuple[str, ...]] = set()
        # folded: so that the archive unpacks the same on a file system
        # that does not tell case or Unicode forms apart
        seen: dict[tuple[str, ...], str] = {}
        budget = MAX_UNPACKED_BYTES
        for info in infos:
            parts = member_parts(info)
            folded = tuple(unicodedata.normalize("NFC", part).casefold() for part in parts)
            if folded in seen:
                raise UploadRefused(f"member {shown(info.orig_filename)}: a second member named as "
                                    f"{shown(seen[folded])} (duplicate names are not allowed)")
            seen[folded] = info.orig_filename
            if info.is_dir():
                folders.add(parts)
                continue
            files[parts] = unpacked(archive, info, budget)
            budget -= len(files[parts])
    for parts in files:
        for depth in range(1, len(parts)):
            folders.add(parts[:depth])
    for parts in files:
        if parts in folders:
            raise UploadRefused(f"member {shown('/'.join(parts))}: both a file and a folder")
    return files, folders


def entry_parts(files: dict[tuple[str, ...], bytes], entry: str | None) -> tuple[str, ...]:
    """The member the seat runs: `entry`, or main.py / bot.py at the top or
    in the archive's one top folder (a zipped folder)."""
    if entry is not None:
        parts = tuple(entry.split("/"))
        if parts not in files:
            listed = ", ".join(sorted("/".join(name) for name in files)[:5])
            raise UploadRefused(f"entry {shown(entry)} is not a file in the archive "
                                f"(its files: {listed or 'none'})")
        return parts
    tops = {parts[0] for parts in files}
    prefixes = [()] + ([(top,) for top in tops] if len(tops) == 1 else [])
    for prefix in prefixes:
        for name in DEFAULT_ENTRIES:
            if prefix + (name,) in files:
                return prefix + (name,)
    raise UploadRefused(f"the archive has no {' or '.join(DEFAULT_ENTRIES)}: name its entry point "
                        "(the entry field, e.g. mybot/play.py)")


def store_upload(data: bytes, filename: str, dest: Path, entry: str | None = None) -> Path:
    """Check the upload and write it into dest (an empty folder that exists);
    return the entry point (a path inside dest) the seat will run.
    A single file (.py, or any file: it is run as a player program) or a .zip with
    `entry` naming its entry-point member (default: main.py / bot.py if present).
    Refuses (UploadRefused): too large, a zip bomb (total uncompressed size, member
    count, compression ratio), members with '..', absolute paths, drive letters,
    symlinks, device files/fifos (from the zip's external attributes), duplicate names,
    names with NUL/control characters, an entry that is not a member; a bad
    `filename` (path separators, '..', empty). Nothing is written outside dest, and
    nothing is left in dest when refused.

    The entry point is made executable (a program with its #! line runs as
    one), every other file only readable; the archive's own modes are not
    taken (no set-user-id bit from a student)."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"the upload is {len(data)} bytes, at most {size_text(MAX_UPLOAD_BYTES)} are allowed")
    check_part(filename, f"file name {shown(filename)}")
    entry = entry.strip() if entry else None
    if not filename.lower().endswith(".zip"):
        if entry is not None and entry != filename:
            raise UploadRefused(f"entry {shown(entry)}: an entry point is named only in a .zip "
                                f"(this upload is the single file {shown(filename)})")
        files: dict[tuple[str, ...], bytes] = {(filename,): data}
        folders: set[tuple[str, ...]] = set()
        chosen: tuple[str, ...] = (filename,)
    else:
        files, folders = archive_members(data)
        chosen = entry_parts(files, entry)
    written: list[Path] = []
    try:
        # sorted: a folder comes before what it holds
        for parts in sorted(folders):
            dest.joinpath(*parts).mkdir()
            written.append(dest.joinpath(*parts))
        for parts, content in files.items():
            # "x": O_EXCL, never through a link nor over a file
            with open(dest.joinpath(*parts), "xb") as target:
                written.append(dest.joinpath(*parts))
                target.write(content)
            dest.joinpath(*parts).chmod(0o755 if parts == chosen else 0o644)
    except BaseException:
        # nothing half-written stays (the folder was empty: a server's
        # mistake or a full disc, not the student's)
        for path in reversed(written):
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink(missing_ok=True)
        raise
    return dest.joinpath(*chosen)
