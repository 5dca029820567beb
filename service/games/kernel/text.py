"""Text a client chose that other people read: a seat's name, a table's name, an announcement word.

It is NFC-normalised and trimmed, and refused (``problem`` says why) when it holds a character
that hides, reorders or fakes what others see: controls and format characters (Cc, Cf: zero-width
spaces and joiners, bidi overrides and isolates, tag characters U+E0000-E007F, the soft hyphen),
surrogates, private-use and unassigned code points (Cs, Co, Cn), line and paragraph separators
(Zl, Zp), and every default-ignorable code point (Unicode's DerivedCoreProperties: variation
selectors, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme joiner,
...). What is left must show something: a letter, digit, punctuation mark or symbol (not only
spaces, combining marks or the blank braille pattern). Pure: the API's schemas and the games'
option checks use it alike."""
from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs", "Cn", "Co", "Zl", "Zp"))
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (  # Default_Ignorable_Code_Point (Unicode 15)
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
BLANK_SYMBOLS = frozenset("\u2800")  # BRAILLE PATTERN BLANK: a symbol that shows nothing
VISIBLE_CLASSES = frozenset("LNPS")  # the first letter of a category that shows something


def default_ignorable(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE)


def clean(text: str) -> str:
    """The stored form: NFC-normalised, surrounding white space removed."""
    return unicodedata.normalize("NFC", text).strip()


def refused_char(ch: str) -> bool:
    return ch in BIDI_CONTROLS or unicodedata.category(ch) in REFUSED_CATEGORIES or default_ignorable(ch)


def problem(text: str, max_length: int, what: str = "a name") -> str | None:
    """None when ``text`` (already ``clean``) may be shown to others as ``what``, else why not."""
    if not 1 <= len(text) <= max_length:
        return f"1 to {max_length} characters (after NFC normalisation and trimming)"
    bad = next((ch for ch in text if refused_char(ch)), None)
    if bad is not None:
        label = unicodedata.name(bad, "")
        return f"character U+{ord(bad):04X}{f' ({label})' if label else ''} is not allowed in {what}"
    if not any(unicodedata.category(ch)[0] in VISIBLE_CLASSES and ch not in BLANK_SYMBOLS for ch in text):
        return f"{what} must show a letter, digit, punctuation mark or symbol (not only blanks or marks)"
    return None
