"""Which images a card may show (nca_anki/reading/images.py): SVG as a static drawing
and nothing more, raster images of a size a phone can decode."""

from __future__ import annotations

import struct

import pytest

from nca_anki.reading.images import (MAX_PIXELS, MAX_SIDE, image_problem, image_type,
                                     pixel_size, svg_problem)

from images import png

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n'


def svg(body: str, head: str = HEAD) -> bytes:
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{head}{body}\n</svg>\n'.encode()


# --- SVG ------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, words", [
    ('<script>alert(1)</script>', "holds <script>"),
    ('<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>', "<script>"),
    ('<rect width="1" height="1" onload="alert(1)"/>', "onload= is an event handler"),
    ('<rect width="1" height="1" ONCLICK="x()"/>', "ONCLICK= is an event handler"),
    ('<use xlink:href="javascript&#58;alert(1)"/>', "refers outside the file"),
    ('<a href="https://example.com"><rect width="1" height="1"/></a>', "holds <a>"),
    ('<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://x.org"/>'
     '</foreignObject>', "holds <iframe>"),
    ('<image href="https://example.com/a.png" width="1" height="1"/>', "refers outside"),
    ('<image xlink:href="file:///etc/passwd"/>', "refers outside the file"),
    ('<image href="data:text/html;base64,PHNjcmlwdD4="/>', "refers outside the file"),
    ('<feImage href="https://x.org/a.png"/>', "refers outside the file"),
    ('<use href="other.svg#icon"/>', "refers outside the file"),
    ('<style>@import url(https://x.org/a.css);</style>', "imports a style sheet"),
    ('<style><![CDATA[rect { fill: url(https://x.org/a.png) }]]></style>', "url(...)"),
    ('<rect style="fill: url( \'https://x.org/p\' )" width="1" height="1"/>', "url(...)"),
    ('<rect filter="url(http://x.org/f.svg#f)" width="1" height="1"/>', "url(...)"),
    ('<rect fill="javascript:alert(1)" width="1" height="1"/>', "'javascript:'"),
    ('<animate attributeName="href" values="javascript:alert(1)"/>', "holds <animate>"),
    ('<set attributeName="onload" to="alert(1)"/>', "holds <set>"),
    ('<embed src="x.swf"/>', "holds <embed>"),
    ('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml" '
     'style="background: url(https://x.org/t.png)">label</div></foreignObject>', "url(...)"),
    ('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><img src="x"/></div>'
     '</foreignObject>', "holds <img>"),
])
def test_an_svg_that_reaches_outside_or_runs_script_is_refused_at_its_line(body, words):
    why = svg_problem(svg(body))
    assert why is not None and why.startswith("line 3: ") and words in why, why


def test_entities_and_their_declarations_are_refused_before_they_expand():
    xxe = (b'<?xml version="1.0"?>\n<!DOCTYPE svg [\n<!ENTITY x SYSTEM "file:///etc/passwd">\n]>\n'
           b'<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>')
    laughs = (b'<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">'
              + b"".join(f'<!ENTITY {c} "{(chr(ord(c) - 1) * 10).replace(chr(ord(c) - 1), "&" + chr(ord(c) - 1) + ";")}">'.encode()
                         for c in "bcdefghij")
              + b']>\n<svg xmlns="http://www.w3.org/2000/svg"><text>&j;</text></svg>')
    for data in (xxe, laughs):
        why = svg_problem(data)
        assert why is not None and "document type declares" in why, why
    stylesheet = b'<?xml-stylesheet href="https://x.org/a.css"?>\n' + svg("")
    assert "processing instruction" in (svg_problem(stylesheet) or "")
    assert "not well-formed XML" in (svg_problem(b"<svg xmlns='http://www.w3.org/2000/svg'>") or "")


def test_drawings_as_editors_export_them_are_shown():
    inkscape = (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
                b'<!-- Created with Inkscape (http://www.inkscape.org/) -->\n'
                b'<svg xmlns:dc="http://purl.org/dc/elements/1.1/" '
                b'xmlns:cc="http://creativecommons.org/ns#" '
                b'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                b'xmlns:svg="http://www.w3.org/2000/svg" xmlns="http://www.w3.org/2000/svg" '
                b'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" '
                b'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="210mm" '
                b'height="297mm" sodipodi:docname="gpu.svg" inkscape:version="1.2">\n'
                b'<sodipodi:namedview id="base" pagecolor="#ffffff" inkscape:zoom="0.35"/>\n'
                b'<metadata><rdf:RDF><cc:Work rdf:about=""><dc:format>image/svg+xml</dc:format>'
                b'<dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/></cc:Work>'
                b'</rdf:RDF></metadata>\n'
                b'<defs><linearGradient id="g"><stop offset="0" style="stop-color:#76b900"/>'
                b'</linearGradient><filter id="f"><feGaussianBlur stdDeviation="2"/></filter>'
                b'</defs>\n<g inkscape:label="Layer 1" inkscape:groupmode="layer">'
                b'<rect style="fill:url(#g);filter:url( \'#f\' )" width="10" height="10"/>'
                b'<text x="1" y="5"><tspan>Tensor Core</tspan></text></g>\n</svg>\n')
    drawio = svg('<style>.l { font: 12px sans-serif }</style><g><rect width="80" height="30" '
                 'fill="#fff" stroke="#000"/><foreignObject width="80" height="30">'
                 '<div xmlns="http://www.w3.org/1999/xhtml" style="display: flex; color: #000">'
                 '<div><span><b>GPU</b><br/>memory</span></div></div></foreignObject>'
                 '<image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>'
                 '<use xlink:href="#g1"/></g>')
    doctype = (b'<?xml version="1.0"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
               b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n'
               b'<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><circle r="2"/></svg>')
    for data in (inkscape, drawio, doctype):
        assert image_type(data) == "svg"
        assert svg_problem(data) is None
        assert image_problem(data, "svg") is None


def test_a_deeply_nested_svg_is_read_in_one_pass():
    deep = svg("<g>" * 100_000 + "</g>" * 100_000)
    assert svg_problem(deep) is None
    assert "holds <script>" in (svg_problem(svg("<g>" * 50_000 + "<script/>" + "</g>" * 50_000))
                                or "")


# --- raster sizes ---------------------------------------------------------------------------

def _jpeg(width: int, height: int) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + app0 + sof + b"\xff\xd9"


def _gif(width: int, height: int) -> bytes:
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\0\0\0;"


def _webp(width: int, height: int) -> bytes:
    return (b"RIFF\0\0\0\0WEBPVP8X" + struct.pack("<I", 10) + b"\0\0\0\0"
            + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


@pytest.mark.parametrize("make, kind", [(png, "png"), (_jpeg, "jpg"), (_gif, "gif"),
                                        (_webp, "webp")])
def test_a_raster_image_is_measured_from_its_header(make, kind):
    assert pixel_size(make(640, 480), kind) == (640, 480)
    assert image_problem(make(640, 480), kind) is None
    assert image_problem(make(MAX_SIDE, MAX_PIXELS // MAX_SIDE), kind) is None
    why = image_problem(make(20_000, 20_000), kind)
    assert why is not None and "20,000 x 20,000 pixels" in why and "scale it down" in why
    assert "8,193 x 1 pixels" in (image_problem(make(MAX_SIDE + 1, 1), kind) or "")


def test_a_20000_pixel_square_png_is_a_few_kb_and_refused():
    data = png(20_000, 20_000)
    assert len(data) < 1_000_000
    assert "20,000 x 20,000" in (image_problem(data, "png") or "")


def test_a_raster_image_whose_header_is_cut_short_is_refused():
    assert "header cannot be read" in (image_problem(b"\x89PNG\r\n\x1a\n\0\0", "png") or "")
    assert "header cannot be read" in (image_problem(b"\xff\xd8\xff\xe0\0\x10", "jpg") or "")


@pytest.mark.parametrize("css", ["rect { fill: \\75rl(https://x.org/a.png) }",
                                 "@\\69mport 'https://x.org/a.css';",
                                 "rect { fill: u\\72l( https://x.org ) }",
                                 "rect { background: image-set('https://x.org/a.png' 1x) }",
                                 "rect { fill: url(/* a */https://x.org) }",
                                 "rect { font-family: '\\5FAE\\8F6F'; fill: url(https://x) }"])
def test_css_is_read_as_a_browser_reads_it(css):
    assert svg_problem(svg(f"<style>{css}</style>")) is not None


def test_css_escapes_of_harmless_text_are_shown():
    assert svg_problem(svg("<style>text { font-family: '\\5FAE\\8F6F\\96C5\\9ED1' }</style>")) \
        is None
