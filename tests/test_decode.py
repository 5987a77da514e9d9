"""decode.py: bytes to text as Python and editors read them, never raising."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from docgen.scan.decode import DecodedText, decode_python, decode_text

Decoder = Callable[[bytes], DecodedText]


def test_plain_utf8_is_decoded_unchanged() -> None:
    decoded = decode_text("naïve = 1\n".encode())
    assert decoded.text == "naïve = 1\n"
    assert decoded.encoding == "utf-8"
    assert decoded.ok
    assert decoded.problems == ()


def test_empty_input() -> None:
    assert decode_text(b"").text == ""
    assert decode_text(b"").ok
    assert decode_python(b"").text == ""
    assert decode_python(b"").ok


@pytest.mark.parametrize("decode", [decode_text, decode_python])
def test_utf8_bom_is_dropped(decode: Decoder) -> None:
    decoded = decode(b"\xef\xbb\xbfx = 1\n")
    assert decoded.text == "x = 1\n"
    assert decoded.encoding == "utf-8"
    assert decoded.ok


@pytest.mark.parametrize("decode", [decode_text, decode_python])
def test_crlf_and_cr_become_lf(decode: Decoder) -> None:
    assert decode(b"a\r\nb\rc\n").text == "a\nb\nc\n"


def test_invalid_utf8_is_replaced_and_reported_on_its_line() -> None:
    decoded = decode_text(b"one\ntwo\nbad \xff here\n")
    assert decoded.text == "one\ntwo\nbad \ufffd here\n"
    assert not decoded.ok
    assert len(decoded.problems) == 1
    assert decoded.problems[0].line == 3
    assert "utf-8" in decoded.problems[0].message


def test_python_coding_cookie_is_honoured() -> None:
    decoded = decode_python(b"# -*- coding: latin-1 -*-\ns = '\xe9'\n")
    assert decoded.text == "# -*- coding: latin-1 -*-\ns = '\u00e9'\n"
    assert decoded.encoding == "iso8859-1"
    assert decoded.ok


def test_python_cookie_on_second_line_counts_but_not_on_third() -> None:
    second = decode_python(b"#!/usr/bin/env python\n# coding: latin-1\ns = '\xe9'\n")
    assert second.encoding == "iso8859-1"
    assert second.text.endswith("'\u00e9'\n")
    third = decode_python(b"\n\n# coding: latin-1\ns = '\xe9'\n")
    assert third.encoding == "utf-8"
    assert not third.ok  # \xe9 alone is not UTF-8
    assert third.text.endswith("'\ufffd'\n")


def test_python_bom_contradicting_cookie_is_a_problem_not_an_error() -> None:
    decoded = decode_python(b"\xef\xbb\xbf# coding: latin-1\nx = 1\n")
    assert not decoded.ok
    assert decoded.encoding == "utf-8"
    assert decoded.text == "# coding: latin-1\nx = 1\n"
    assert any("coding cookie" in problem.message for problem in decoded.problems)


def test_python_unknown_encoding_cookie_is_a_problem() -> None:
    decoded = decode_python(b"# coding: no-such-codec\nx = 1\n")
    assert not decoded.ok
    assert decoded.encoding == "utf-8"
    assert decoded.text == "# coding: no-such-codec\nx = 1\n"
    assert decoded.problems[0].line == 1


def test_python_invalid_bytes_under_utf8_are_replaced() -> None:
    decoded = decode_python(b"x = 1\ny = '\xff'\n")
    assert decoded.text == "x = 1\ny = '\ufffd'\n"
    assert not decoded.ok
    assert decoded.problems[0].line == 2


@pytest.mark.parametrize("codec", ["rot13", "hex", "base64", "zlib"])
def test_python_cookie_naming_a_non_text_codec_does_not_raise(codec: str) -> None:
    decoded = decode_python(f"# coding: {codec}\nx = 1\n".encode())
    assert not decoded.ok


def test_problem_line_with_cr_only_line_ends() -> None:
    decoded = decode_text(b"a\rb\r\xff\r")
    assert decoded.problems[0].line == 3
