#!/usr/bin/python3
"""A program asking the desktop for files through the XDG portal, as Firefox or a Flatpak does.

usage: portal-client.py TITLE FILTERS-JSON [--multiple] [--save NAME] [--close-when FILE] [--token TOKEN]

Calls org.freedesktop.portal.FileChooser.OpenFile on the session bus with the filters given
(JSON: [[name, [[0 glob | 1 MIME type, pattern], ...]], ...]) and prints the Response signal as
one JSON line: {"response": N, "uris": [...]}. With --save it calls SaveFile instead, offering
NAME as the file's name. With --close-when, once FILE exists it closes the
request (org.freedesktop.portal.Request.Close) instead and prints {"closed": true}. Gives up
after 120 seconds ({"timeout": true}, exit 1). A test oracle for Viewfinder's portal backend:
it knows nothing of Viewfinder.
"""
import json
import os
import sys

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    title, filters = argv[1], json.loads(argv[2])
    multiple = "--multiple" in argv
    close_when = argv[argv.index("--close-when") + 1] if "--close-when" in argv else None
    token = argv[argv.index("--token") + 1] if "--token" in argv else "viewfinder_test"
    save_as = argv[argv.index("--save") + 1] if "--save" in argv else None

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    sender = bus.get_unique_name()[1:].replace(".", "_")
    request_path = f"/org/freedesktop/portal/desktop/request/{sender}/{token}"
    loop = GLib.MainLoop()
    outcome = {"timeout": True}

    def on_response(_bus, _sender, _path, _interface, _signal, parameters):
        response, results = parameters.unpack()
        outcome.clear()
        outcome.update({"response": response, "uris": list(results.get("uris", []))})
        loop.quit()

    bus.signal_subscribe("org.freedesktop.portal.Desktop", "org.freedesktop.portal.Request", "Response",
                         request_path, None, Gio.DBusSignalFlags.NO_MATCH_RULE, on_response)
    bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
                  GLib.Variant("(s)", (f"type='signal',interface='org.freedesktop.portal.Request',path='{request_path}'",)),
                  None, Gio.DBusCallFlags.NONE, -1, None)
    options = {
        "handle_token": GLib.Variant("s", token),
        "multiple": GLib.Variant("b", multiple),
        "filters": GLib.Variant("a(sa(us))", [(name, [(kind, pattern) for kind, pattern in rules]) for name, rules in filters]),
    }
    if save_as is not None:
        options["current_name"] = GLib.Variant("s", save_as)
        del options["multiple"]
    handle = bus.call_sync("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                           "org.freedesktop.portal.FileChooser", "SaveFile" if save_as is not None else "OpenFile",
                           GLib.Variant("(ssa{sv})", ("", title, options)), GLib.VariantType("(o)"),
                           Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
    if handle != request_path:
        print(json.dumps({"error": f"request path {handle}, expected {request_path}"}))
        return 1

    def check_close():
        if close_when and os.path.exists(close_when):
            bus.call_sync("org.freedesktop.portal.Desktop", request_path, "org.freedesktop.portal.Request", "Close",
                          None, None, Gio.DBusCallFlags.NONE, -1, None)
            outcome.clear()
            outcome["closed"] = True
            loop.quit()
            return False
        return True

    GLib.timeout_add(50, check_close)
    GLib.timeout_add_seconds(120, loop.quit)
    loop.run()
    print(json.dumps(outcome), flush=True)
    return 1 if "timeout" in outcome else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
