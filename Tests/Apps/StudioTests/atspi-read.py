#!/usr/bin/python3
"""Reads a running application's accessible objects as a screen reader (Orca) does, through
AT-SPI with pyatspi, and prints one JSON object per object: its depth, role, name, description,
states and, for ranged objects, the value and its bounds. The tests of StudioTests read what a
person using a screen reader hears from this; it is an oracle, not part of the product.

usage: atspi-read.py APPLICATION-NAME
"""
import json
import sys

import pyatspi

STATES = {
    pyatspi.STATE_FOCUSED: "focused",
    pyatspi.STATE_FOCUSABLE: "focusable",
    pyatspi.STATE_SELECTED: "selected",
    pyatspi.STATE_CHECKED: "checked",
    pyatspi.STATE_SHOWING: "showing",
    pyatspi.STATE_VISIBLE: "visible",
}


def describe(node, depth):
    states = node.getState()
    entry = {
        "depth": depth,
        "role": node.getRoleName(),
        "name": node.name or "",
        "description": node.description or "",
        "states": [word for state, word in STATES.items() if states.contains(state)],
    }
    try:
        value = node.queryValue()
        entry["value"] = value.currentValue
        entry["minimum"] = value.minimumValue
        entry["maximum"] = value.maximumValue
    except NotImplementedError:
        pass
    print(json.dumps(entry, ensure_ascii=False))
    for index in range(node.childCount):
        child = node.getChildAtIndex(index)
        if child is not None:
            describe(child, depth + 1)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    desktop = pyatspi.Registry.getDesktop(0)
    names = []
    for index in range(desktop.childCount):
        application = desktop.getChildAtIndex(index)
        if application is None:
            continue
        if application.name == sys.argv[1]:
            describe(application, 0)
            return 0
        names.append(application.name)
    print(f"atspi-read: no application named {sys.argv[1]} on the accessibility bus (it has: {names})", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
