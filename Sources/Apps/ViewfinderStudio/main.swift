import CommandLineKit
import Foundation
import MediaIO
import StudioKit
import ViewfinderCore

Localization.start()

/// Writes one line to standard error.
func complain(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

let parsed: StudioOptions.Parsed
do {
    parsed = try StudioOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if CommandLine.arguments.dropFirst().first == "pick" {
        complain("viewfinder-studio pick: " + tr("{message} (see 'viewfinder-studio pick --help')", ["message": error.message]))
    } else {
        complain("viewfinder-studio: \(error.message)\n")
        complain(StudioOptions.usage)
    }
    exit(2)
}

switch parsed {
case .help:
    print(StudioOptions.usage, terminator: "")
    exit(0)
case .version:
    print("viewfinder-studio \(Studio.version)")
    exit(0)
case .manual:
    print(ManualPage.render(StudioOptions.reference), terminator: "")
    exit(0)
case .completions(let shell):
    print(shell.script(for: StudioOptions.reference), terminator: "")
    exit(0)
case .pickHelp:
    print(PickRequest.usage, terminator: "")
    exit(0)
case .run(let options), .pick(_, let options):
    // A pick's file that cannot be read, or that is no regular file (a named pipe or a device
    // would block its reader for ever), is an error before any window opens.
    if let input = options.pick?.input {
        do {
            _ = try checkReadableMediaFile(input)
        } catch {
            complain("viewfinder-studio: \(error)")
            exit(1)
        }
    }
    if let script = options.script, !FileManager.default.isReadableFile(atPath: script.path) {
        complain("viewfinder-studio: " + tr("cannot read the script {path}", ["path": script.path]))
        exit(1)
    }
    if options.portal {
        // A portal backend must not ask the portal for anything: xdg-desktop-portal waits for it
        // to start, and libadwaita's style settings (or GTK's dialogs) would wait for the portal.
        setenv("ADW_DISABLE_PORTAL", "1", 1)
        setenv("GTK_USE_PORTAL", "0", 1)
    }
    guard Application.canOpenDisplay() else {
        complain("viewfinder-studio: " + tr("cannot open a display: no desktop session here ($DISPLAY and $WAYLAND_DISPLAY are unset or unreachable). Run it from a desktop, or under 'xvfb-run -a' for a virtual one."))
        exit(1)
    }
    let studio: Studio
    do {
        studio = try Studio(options: options)
    } catch {
        complain("viewfinder-studio: \(error)")
        exit(1)
    }
    exit(studio.run())
}
