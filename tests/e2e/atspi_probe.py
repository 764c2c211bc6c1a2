"""The window as a screen reader (Orca) sees it, over the AT-SPI bus. Run by tests/e2e/test_atspi.py with the
system Python (``/usr/bin/python3``: Debian's python3-pyatspi is built for it), inside a private D-Bus session
on an Xvfb display:

    dbus-run-session -- /usr/bin/python3 tests/e2e/atspi_probe.py -- COMMAND…

It starts COMMAND (the app), finds its accessible tree by process id, waits for the first trace (the central
map is named after its figure) and for the panels built after it, walks the tree, then does what a
keyboard user with a screen reader does: focuses the central map through AT-SPI, presses Down three times
and Right once (keyboard events through the registry, XTest under X), and listens for the name-change event
the reader would speak. Prints one JSON object; the test asserts on it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pyatspi
from gi.repository import GLib

CHECKED = {
    "push button",
    "spin button",
    "combo box",
    "check box",
    "slider",
    "page tab",
    "toggle button",
    "radio button",
}
NO_DESCENT = {"table", "tree table", "list", "tree", "menu bar", "menu"}  # thousands of cells, menu items
KEYSYMS = {"Down": 0xFF54, "Right": 0xFF53}


def pump(seconds: float) -> None:
    """Let AT-SPI events arrive (they are dispatched on GLib's default main context)."""
    ctx, end = GLib.MainContext.default(), time.time() + seconds
    while time.time() < end:
        while ctx.pending():
            ctx.iteration(False)
        time.sleep(0.02)


def find_app(pid: int, deadline: float):
    desktop = pyatspi.Registry.getDesktop(0)
    while time.time() < deadline:
        for app in desktop:
            try:
                if app is not None and app.get_process_id() == pid:
                    return app
            except Exception:  # an application that went away while listed
                continue
        time.sleep(0.3)
    return None


def walk(acc, out: list, depth: int = 0) -> list:
    try:
        role, name, states = acc.getRoleName(), acc.name or "", acc.getState()
        out.append(
            {
                "role": role,
                "name": name,
                "description": acc.description or "",
                "acc": acc,
                "showing": states.contains(pyatspi.STATE_SHOWING),
                "depth": depth,
            }
        )
        if role in NO_DESCENT or depth > 60:
            return out
        for i in range(acc.childCount):
            child = acc.getChildAtIndex(i)
            if child is not None:
                walk(child, out, depth + 1)
    except Exception:  # a node deleted while walked (a panel rebuilt): the next walk sees the new one
        pass
    return out


def path(acc) -> str:
    parts = []
    while acc is not None and len(parts) < 6:
        try:
            parts.append(f"{acc.getRoleName()}:{(acc.name or '')[:30]}")
            acc = acc.parent
        except Exception:
            break
    return " < ".join(parts)


def wait_for(app, test, deadline: float):
    while time.time() < deadline:
        nodes = walk(app, [])
        found = [n for n in nodes if test(n)]
        if found:
            return nodes, found
        pump(0.5)
    return walk(app, []), []


def main() -> int:
    command = sys.argv[sys.argv.index("--") + 1 :]
    result: dict = {"ok": False}
    proc = subprocess.Popen(command)
    try:
        deadline = time.time() + 150
        app = find_app(proc.pid, deadline)
        if app is None:
            result["error"] = "the application never appeared on the AT-SPI bus"
            return print(json.dumps(result)) or 0
        is_central = lambda n: n["name"].startswith("Map: query") and n["showing"]  # noqa: E731
        nodes, central = wait_for(app, is_central, deadline)
        if not central:
            result["error"] = "the central map never appeared (no trace?)"
            return print(json.dumps(result)) or 0
        # The panels behind tabs are built just after the first trace: wait for the last ones (Train, Generate).
        nodes, _ = wait_for(app, lambda n: n["role"] == "push button" and n["name"] in ("Start", "Generate"), deadline)
        pump(1.0)
        nodes = walk(app, [])
        result["counts"] = {}
        for n in nodes:
            result["counts"][n["role"]] = result["counts"].get(n["role"], 0) + 1
        result["unnamed"] = [
            f"{n['role']} ({'showing' if n['showing'] else 'hidden'}) in {path(n['acc'].parent)}"
            for n in nodes
            if n["role"] in CHECKED and not n["name"].strip()
        ]
        result["undescribed"] = [
            f"{n['role']} {n['name']!r}"
            for n in nodes
            if n["role"] in CHECKED - {"page tab"} and n["showing"] and not n["description"].strip()
        ]
        target = [n for n in nodes if is_central(n)][0]["acc"]
        heard: list[str] = []

        def on_name(event) -> None:
            if event.source == target or (event.source.name or "").startswith("query"):
                heard.append(event.source.name)

        pyatspi.Registry.registerEventListener(on_name, "object:property-change:accessible-name")
        result["focus_granted"] = bool(target.queryComponent().grabFocus())
        pump(1.0)
        for key in ("Down", "Down", "Down", "Right"):
            pyatspi.Registry.generateKeyboardEvent(KEYSYMS[key], None, pyatspi.KEY_SYM)
            pump(0.4)
        end = time.time() + 20
        while time.time() < end and not (target.name or "").startswith("query 3"):
            pump(0.2)
        result["focused_map"] = target.name
        result["focused_state"] = target.getState().contains(pyatspi.STATE_FOCUSED)
        result["description"] = target.description
        result["heard"] = heard
        result["ok"] = True
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
