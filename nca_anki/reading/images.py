"""What an image file is, and whether a card may show it: its type told by its bytes, its
size in pixels, and for SVG, that it is a drawing and nothing more.

Anki's clients show an image through ``<img>``, where an SVG's script never runs and its
external references are never fetched; but the file itself is published in the deck, a
learner may open it, and a card is only as safe as its weakest client. So an SVG is read
as XML, with no document type that declares anything (no entities: no XXE, no "billion
laughs"), and holds only

- elements of an allow-list of static drawing (shapes, text, gradients, filters, clipping,
  ``<style>``; ``<foreignObject>`` with an allow-list of plain HTML for diagram labels, as
  draw.io writes them), and the inert metadata of drawing programs (Inkscape, Sodipodi,
  RDF, Dublin Core);
- attributes with no event handler (``on...``) and no external reference: a link
  (``href``, ``xlink:href``) is to an element of the same file (``#id``) or an embedded
  raster image (``data:image/png;base64,...``), and CSS, in ``style`` or ``<style>``,
  has no ``@import`` and no ``url(...)`` but ``url(#id)``.

Anything else is refused at its line, never removed: the file is published as the author
made it, or not at all.

Raster images are refused above ``MAX_SIDE`` pixels on a side or ``MAX_PIXELS`` in all:
a phone decodes an image to 4 bytes a pixel, and a 20,000 x 20,000 PNG (a few KB of
bytes) is 1.6 GB of memory.
"""

from __future__ import annotations

import re
import struct
from typing import Any
from collections.abc import Callable
from xml.parsers import expat

MAX_SIDE = 8192  # pixels: twice a 4K screen's width
MAX_PIXELS = 40_000_000  # about 160 MB decoded

_SVG = "http://www.w3.org/2000/svg"
_XHTML = "http://www.w3.org/1999/xhtml"
_XLINK = "http://www.w3.org/1999/xlink"
_XML = "http://www.w3.org/XML/1998/namespace"
_SVG_ELEMENTS = frozenset("""
svg g defs desc title metadata symbol use switch view path rect circle ellipse line polyline
polygon text tspan textPath marker pattern clipPath mask linearGradient radialGradient stop
style image foreignObject filter feBlend feColorMatrix feComponentTransfer feComposite
feConvolveMatrix feDiffuseLighting feDisplacementMap feDistantLight feDropShadow feFlood
feFuncA feFuncB feFuncG feFuncR feGaussianBlur feImage feMerge feMergeNode feMorphology
feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence
""".split())
# Plain HTML inside <foreignObject>: the labels of a diagram.
_HTML_ELEMENTS = frozenset("""
div span p br b i u s em strong small sub sup font code pre ul ol li table thead tbody tr td
th hr
""".split())
# Drawing programs' own data, which no renderer shows.
_METADATA = frozenset({
    "http://www.inkscape.org/namespaces/inkscape",
    "http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd",
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "http://purl.org/dc/elements/1.1/", "http://creativecommons.org/ns#",
    "http://web.resource.org/cc/", "http://purl.org/dc/terms/",
    "http://www.bohemiancoding.com/sketch/ns", "http://www.serif.com/",
    "http://ns.adobe.com/AdobeIllustrator/10.0/", "http://ns.adobe.com/AdobeSVGViewerExtensions/3.0/",
    "http://ns.adobe.com/Extensibility/1.0/", "http://ns.adobe.com/Graphs/1.0/",
    "http://ns.adobe.com/Variables/1.0/", "http://ns.adobe.com/SaveForWeb/1.0/",
    "http://ns.adobe.com/ImageReplacement/1.0/", "http://ns.adobe.com/GenericCustomNamespace/1.0/",
    "http://ns.adobe.com/XPath/1.0/", "http://ns.adobe.com/xap/1.0/",
})
_LINKS = frozenset({"href", f"{_XLINK} href"})
_INTERNAL = re.compile(r"\s*#")
_EMBEDDED = re.compile(r"\s*data:image/(png|jpeg|gif|webp);base64,", re.IGNORECASE)
# CSS that reaches outside the file: @import, and url() of anything but "#id".
_CSS_IMPORT = re.compile(r"@import", re.IGNORECASE)
_CSS_URL = re.compile(r"""url\(\s*+(?!['"]?\s*#)|image-set\(""", re.IGNORECASE)
# CSS read as a browser reads it: comments gone, escapes ("\75rl(" is "url(") decoded.
_CSS_COMMENT = re.compile(r"/\*.*?(\*/|$)", re.DOTALL)
_CSS_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})\s?|(.))", re.DOTALL)
_SCHEME = re.compile(r"(javascript|vbscript|data)\s*:", re.IGNORECASE)


def _unescaped(match: re.Match[str]) -> str:
    if match.group(1):
        code = int(match.group(1), 16)
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    return match.group(2)


class _Refused(Exception):
    def __init__(self, line: int, why: str) -> None:
        super().__init__(why)
        self.line, self.why = line, why


def image_type(data: bytes) -> str | None:
    """The file type Anki's clients show ``data`` as ("png", "jpg", "gif", "webp",
    "svg"), told by its first bytes; None if it is no such image."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<svg", b"<?xml", b"<!--", b"<!DOCTYPE svg")) and b"<svg" in head:
        return "svg"
    return None


def image_problem(data: bytes, kind: str) -> str | None:
    """Why a card may not show ``data``, an image of type ``kind`` (image_type), as a
    phrase that says what to do; None if it may."""
    if kind == "svg":
        return svg_problem(data)
    size = pixel_size(data, kind)
    if size is None:
        return (f"its {kind.upper()} header cannot be read (a damaged or cut-short file?); "
                "save it again")
    width, height = size
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        return (f"it is {width:,} x {height:,} pixels, more than a phone can show (at most "
                f"{MAX_SIDE:,} on a side and {MAX_PIXELS // 1_000_000} million in all); "
                "scale it down")
    return None


def pixel_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """Width and height in pixels of a PNG, JPEG, GIF or WebP, read from its header;
    None if the header cannot be read."""
    try:
        if kind == "png" and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if kind == "gif":
            return struct.unpack("<HH", data[6:10])
        if kind == "webp":
            return _webp_size(data)
        if kind == "jpg":
            return _jpeg_size(data)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":  # extended: the canvas, 24-bit sizes minus one
        return (int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    if chunk == b"VP8L":  # lossless: 14-bit sizes minus one, after a signature byte
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":  # lossy: a key frame's 14-bit sizes
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """From the first start-of-frame segment, walking the segments (linear)."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # padding
            at += 1
            continue
        if 0xD0 <= marker <= 0xD9 or marker == 0x01:  # no length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def svg_problem(data: bytes) -> str | None:
    """Why the SVG ``data`` may not be shown (module docstring), naming its line; None if
    it may. One pass of expat, in time linear in the file."""
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    _SvgWalk(parser).listen()
    try:
        parser.Parse(data, True)
    except _Refused as exc:
        return f"line {exc.line}: {exc.why}"
    except expat.ExpatError as exc:
        return f"line {exc.lineno}: it is not well-formed XML ({expat.ErrorString(exc.code)})"
    return None


class _SvgWalk:
    """expat's handlers for one SVG: each refuses (raising _Refused at the parser's line)
    what a static drawing does not hold."""

    def __init__(self, parser: Any) -> None:
        self.parser = parser
        # What each open element is: "metadata" (a drawing program's, never shown), "html"
        # (inside <foreignObject>), "style" (its text is CSS) or "svg"; counted, not searched.
        self.open_as: list[str] = []
        self.inside = {"metadata": 0, "html": 0}
        self.style: list[str] = []

    def listen(self) -> None:
        parser = self.parser
        parser.StartDoctypeDeclHandler = self.doctype
        parser.EntityDeclHandler = self.entity
        parser.UnparsedEntityDeclHandler = self.entity
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text
        parser.ProcessingInstructionHandler = self.instruction
        parser.ExternalEntityRefHandler = self.external

    def refuse(self, why: str) -> None:
        raise _Refused(self.parser.CurrentLineNumber, why)

    def doctype(self, name: str, system: str | None, public: str | None,
                internal: bool) -> None:
        if internal:
            self.refuse("its document type declares entities or elements (<!DOCTYPE ... [ ]>), "
                        "which can read other files or expand without end")

    def kind(self, name: str) -> str:
        """What the element ``name`` (namespace and local name) is; refused if none."""
        namespace, _, local = name.rpartition(" ")
        if self.inside["metadata"] or namespace in _METADATA:
            return "metadata"
        if namespace == _SVG and local in _SVG_ELEMENTS:
            return "html" if local == "foreignObject" else "style" if local == "style" \
                else "svg"
        if self.inside["html"] and namespace in (_XHTML, _SVG, "") \
                and local.lower() in _HTML_ELEMENTS:
            return "html"
        self.refuse(f"it holds <{local}>, which is not part of a static drawing")
        return ""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        kind = self.kind(name)
        if kind != "metadata":
            for key, value in attributes.items():
                if key.rpartition(" ")[0] not in _METADATA:
                    _check_attribute(key, value, self.refuse)
        if kind in self.inside:
            self.inside[kind] += 1
        self.open_as.append(kind)
        self.style.clear()

    def end(self, name: str) -> None:
        kind = self.open_as.pop()
        if kind in self.inside:
            self.inside[kind] -= 1
        if kind == "style":
            _check_css("".join(self.style), self.refuse)
        self.style.clear()

    def text(self, data: str) -> None:
        if self.open_as and self.open_as[-1] == "style":
            self.style.append(data)

    def instruction(self, target: str, data: str) -> None:
        self.refuse(f"it holds the processing instruction <?{target} ...?> (a style sheet "
                    "from elsewhere?)")

    def entity(self, *_: object) -> None:
        self.refuse("it declares an entity, which can read other files or expand without end")

    def external(self, *_: object) -> int:
        self.refuse("it refers to an external entity")
        return 0


Refuse = Callable[[str], None]


def _check_attribute(key: str, value: str, refuse: Refuse) -> None:
    local = key.rpartition(" ")[2]
    if local.lower().startswith("on"):
        refuse(f"its attribute {local}= is an event handler (script)")
    if key in _LINKS:
        if not (_INTERNAL.match(value) or _EMBEDDED.match(value)):
            refuse(f"its {local}={value[:60]!r} refers outside the file; a drawing may "
                   "refer only to its own parts (#id) or embed PNG, JPEG, GIF or WebP data")
        return
    if scheme := _SCHEME.search(value):
        refuse(f"its attribute {local}= holds {scheme.group(0)!r}")
    _check_css(value, refuse, f"its attribute {local}= ")


def _check_css(css: str, refuse: Refuse, where: str = "its <style> ") -> None:
    if "/*" in css or "\\" in css:
        css = _CSS_ESCAPE.sub(_unescaped, _CSS_COMMENT.sub(" ", css))
    if _CSS_IMPORT.search(css):
        refuse(f"{where}imports a style sheet (@import)")
    if _CSS_URL.search(css):
        refuse(f"{where}has url(...) of something outside the file")
