"""MSVC calling conventions between a return type and a name, which the pinned C++
grammar cannot read (the C grammar can): spdlog's `msvc_sink.h` had put its class
under a function's name."""

from __future__ import annotations

from test_cfamily_units import UNITS
from test_scan_cfamily import inventory

from docgen.scan.cfamily.scanner import scan
from docgen.scan.cfamily.settings import ScanSettings

SOURCE = (UNITS / "spdlog_calling_conventions/msvc_sink.h").read_bytes()


def test_calling_conventions_are_attributes_and_cost_no_name() -> None:
    c = scan("msvc_sink.h", SOURCE, ScanSettings()).cfamily
    assert c is not None and c.error_lines == ()
    assert {(kind, name) for kind, name, _ in inventory(c)} == {
        ("function", "OutputDebugStringA"),
        ("function", "IsDebuggerPresent"),
        ("function", "compare"),
        ("typedef", "Callback"),
        ("namespace", "spdlog"),
        ("namespace", "spdlog::sinks"),
        ("class", "spdlog::sinks::msvc_sink"),
        ("method", "spdlog::sinks::msvc_sink::flush"),
    }
    attributes = {d.name: d.attributes for d in c.definitions}
    assert attributes["OutputDebugStringA"] == ("__declspec(dllimport)", "__stdcall")
    assert attributes["compare"] == ("__cdecl",)
