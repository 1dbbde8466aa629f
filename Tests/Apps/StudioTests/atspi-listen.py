#!/usr/bin/python3
"""Listens to an application's accessibility events as a screen reader (Orca) does, through
AT-SPI with pyatspi, and prints one JSON object per event that a reader speaks without the user
moving: an object of role alert or notification becoming shown, or its name changing. The tests
of StudioTests hear announcements (errors, confirmations) with it; an oracle, not the product.

Prints "listening" once registered, then the events, and ends after SECONDS.

usage: atspi-listen.py APPLICATION-NAME SECONDS
"""
import json
import sys

import pyatspi
from gi.repository import GLib

SPOKEN = {"alert", "notification"}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    application, seconds = sys.argv[1], float(sys.argv[2])

    def heard(event):
        try:
            source = event.source
            if source is None or source.getApplication() is None or source.getApplication().name != application:
                return
            role = source.getRoleName()
            if role not in SPOKEN:
                return
            if event.type.startswith("object:state-changed:showing") and not event.detail1:
                return
            print(json.dumps({"event": str(event.type), "role": role, "name": source.name or "",
                              "description": source.description or ""}, ensure_ascii=False), flush=True)
        except Exception as error:  # an object gone before it was read: nothing was heard
            print(json.dumps({"event": "unreadable", "error": str(error)}), flush=True)

    pyatspi.Registry.registerEventListener(heard, "object:state-changed:showing", "object:property-change:accessible-name")
    GLib.timeout_add(int(seconds * 1000), lambda: pyatspi.Registry.stop() or False)
    print("listening", flush=True)
    pyatspi.Registry.start()
    return 0


if __name__ == "__main__":
    sys.exit(main())
