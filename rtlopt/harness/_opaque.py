"""Texts whose values a run computes: what they spell cannot be read here.

The escape decoder (:mod:`._binary`) reads the spellings it knows (``\\x78``, ``chr(120)``,
``"fo" + "rce"``); a script may compute characters at run time in endless other ways
(``chr(ord("w") + 1)``, ``bytes([116, 98]).decode()``, ``base64.b64decode(...)``,
``pack("C*", ...)``, ``format %c $n``, ``printf "\\\\$(printf %o 120)"``, ``eval`` of a built
string). Decoding every computation is impossible, so a script that computes characters is
opaque (:func:`run_time_spelling`): the rules treat it as a text that may feed x into every
input, name any inner name and set any parameter, naming its file and line.

The trigger is kept narrow where it is still fail-closed: only a script (Python, shell,
Tcl, Perl, Ruby, JavaScript, Make; no documentation, no Verilog, no C) that can hand a value
to a build: it writes files, prints or runs a command (a Python text), or it is a shell,
Tcl, Perl, Ruby or Make text (run by the build as it is).

A Python, Perl or Ruby text may declare its source encoding (PEP 263 ``# coding: utf-7``,
Emacs ``-*- coding: X -*-``, vim ``fileencoding=X``) in its first two lines: it is read in
that encoding (:func:`declared_encoding`); one Python does not know cannot be read."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

__all__ = ["declared_encoding", "run_time_spelling", "source_text"]

_CODING = re.compile(rb"^[ \t\f]*#.*?(?:coding[:=][ \t]*|fileencoding=)([-\w.]+)", re.M)

#: Where a script computes a character or a string from numbers or code at run time.
_COMPUTED = re.compile(
    r"\b(?:chr|unichr|char|String\.fromCharCode|fromCharCode|chr\$)\s*\(\s*"
    r"(?!(?:0[xX][0-9A-Fa-f]+|\d+)\s*\))"  # chr(<literal>) is decoded, chr(<expression>) not
    r"|\bbytes\.fromhex\b|\.fromhex\s*\(|\bunhexlify\b"
    r"|\bcodecs\s*\.\s*(?:decode|encode|getdecoder|getencoder|lookup|open|iterdecode)\b"
    r"|\bbinascii\s*\.\s*(?:unhexlify|a2b_\w+)|\bzlib\s*\.\s*decompress|\bb(?:16|32|64|85)decode\b"
    r"|\b(?:marshal|pickle)\s*\.\s*loads?\b"
    r"|\.decode\s*\(\s*[\"'](?!utf-?8|ascii|latin-?1)[^\"']*[\"']"
    r"|\b(?:un)?pack\s*\(|\bbinary\s+format\b|\bformat\s+\"?%c"
    r"|%c[\"']\s*%\s*(?!\(?\s*(?:0[xX][0-9A-Fa-f]+|\d+)\b)"
    r"|\bprintf\s+[\"']?%[bc]|\bxxd\s+-r|\bbase64\s+(?:-d|--decode)|\bopenssl\s+enc"
    r"|\\\\[\"']?\s*\$\(|[\"']\\\\x[\"']\s*[+.]"
    r"|\b(?:eval|exec)\s*\(\s*(?![\"'][^\"'\n]*[\"']\s*\))"
    r"|\bcompile\s*\([^)\n]*[\"']exec[\"']|\b__import__\s*\(\s*(?![\"'][\w.]*[\"']\s*\))"
    r"|\btr\s+['\"]?[A-Za-z]-[A-Za-z]|\.translate\s*\(|\$\{\s*\w+\s*\^",
)
#: Bytes computed from numbers (a list of literals is decoded): characters only where a
#: Python text turns bytes into text or hands them on (:data:`_BYTES_OUT`); a cocotb test's
#: payload ``bytearray([next(gen) for x in range(n)])`` stays data (held-out trial 51). A
#: name looked up by a value that is no literal (``getattr(dut, s)``, ``dut._id(s)``) is
#: the reach rule's, whatever made the value (``evaluate/_reach_lookups.py``).
_COMPUTED_BYTES = re.compile(
    r"\b(?:bytes|bytearray)\s*\(\s*[\[(](?!\s*(?:(?:0[xX][0-9A-Fa-f]+|\d+)\s*,\s*)*"
    r"(?:0[xX][0-9A-Fa-f]+|\d+)\s*,?\s*[\])]\s*\))"
)
#: Where a Python text may make text of bytes or hand them to a file or a process: a name
#: needs a ``str`` (``getattr``, a handle's ``_id``), a build reads files and command lines.
_BYTES_OUT = re.compile(
    r"\.decode\s*\(|\bstr\s*\([^()\n]*,|\bfsdecode\b|\bcodecs\b|\.write_bytes\s*\("
    r"|\bopen\s*\([^)\n]*[\"'][rwax+]*b[rwax+]*[\"']|\bmode\s*=|\bsubprocess\b"
    r"|\bos\s*\.\s*(?:system|popen|exec\w*|spawn\w*|write)\b|\.buffer\b|\bmemoryview\b"
    r"|\b(?:eval|exec)\s*\(|\bio\s*\.\s*(?:BytesIO|TextIOWrapper)|\bpickle\b|\bctypes\b"
    r"|\.hex\s*\(|\benviron(?:b)?\b|\bputenv\b"
)
_PYTHON = frozenset({".py", ".pyw", ".pyi"})
_SCRIPT = frozenset(
    ".sh .bash .zsh .ksh .csh .tcsh .tcl .do .tk .pl .pm .rb .js .mjs .mk .make .ys".split()
)
_SCRIPT_NAMES = frozenset({"makefile", "gnumakefile", "rakefile", "justfile"})
_SHEBANG = re.compile(r"^#!\s*\S*(?:sh|bash|zsh|ksh|tclsh|wish|perl|ruby|node|python\d*|env)\b")
_PY_RUNS = re.compile(
    r"""\bopen\s*\(|\.write(?:lines|_text|_bytes)?\s*\(|\bprint\s*\(|\bsys\.stdout\b"""
    r"""|\bsubprocess\b|\bos\.(?:system|popen|exec\w*|spawn\w*)\b|\bshutil\b|\bcocotb\b"""
)


def declared_encoding(data: bytes) -> str:
    """The source encoding the first two lines of ``data`` declare (normalised), or ""."""
    head = b"\n".join(data.split(b"\n", 2)[:2])
    m = _CODING.search(head)
    if m is None:
        return ""
    name = m.group(1).decode("ascii", errors="replace").lower()
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name


def source_text(data: bytes) -> tuple[str, str]:
    """The text of ``data`` read in its declared encoding (UTF-8 where none; NUL bytes as
    spaces), and why it cannot be read so ("" where it can)."""
    enc = declared_encoding(data)
    raw = data.replace(b"\0", b" ")
    if enc and enc not in ("utf-8", "ascii"):
        try:
            return raw.decode(enc), ""
        except LookupError:
            why = f"it declares a source encoding rtlopt does not know ({enc})"
        except (UnicodeDecodeError, ValueError):
            why = f"it cannot be read in the source encoding it declares ({enc})"
        return raw.decode(errors="replace"), why
    return raw.decode(errors="replace"), ""


def _script(path: Path, text: str) -> bool:
    """Whether ``path`` is a script that can hand a value to a build (the module's doc)."""
    suffix = path.suffix.lower()
    shebang = _SHEBANG.match(text) is not None
    if suffix in _PYTHON or (shebang and "python" in text[:80]):
        return _PY_RUNS.search(text) is not None
    return suffix in _SCRIPT or path.name.lower() in _SCRIPT_NAMES or shebang


def run_time_spelling(path: Path, text: str) -> tuple[int, str] | None:
    """The line and form of the first place a script (the module's doc) computes characters
    at run time, or None (a whole-line comment aside)."""
    if not _script(path, text):
        return None
    found = list(_COMPUTED.finditer(text))
    if path.suffix.lower() not in _PYTHON or _BYTES_OUT.search(text):
        found += _COMPUTED_BYTES.finditer(text)
    for m in sorted(found, key=lambda m: m.start()):
        start = text.rfind("\n", 0, m.start()) + 1
        head = text[start : m.start()].lstrip()
        if head.startswith(("#", "//", "--")) and not head.startswith("#!"):
            continue
        end = text.find("\n", m.start())
        shown = " ".join(text[start : end if end >= 0 else len(text)].split())[:80]
        return text.count("\n", 0, m.start()) + 1, shown
    return None
