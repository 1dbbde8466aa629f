import Foundation

/// What `viewfinder-studio` was asked to do.
struct StudioOptions {
    /// The library folder (`--library`, else the same default as the CLI's).
    var library: URL?
    /// A camera to offer besides the real ones (`--device virtual`), or a device path.
    var device: String?
    /// A file to open straight away, and on which screen.
    var initial: Initial?
    /// The theme to start with; nil follows the desktop.
    var darkTheme: Bool?
    /// A script of user actions to play (tests and demos).
    var script: URL?

    enum Initial: Equatable {
        case cover(URL), avatar(URL), trim(URL), camera
    }

    enum Parsed {
        case run(StudioOptions), help, version
    }

    struct UsageError: Error {
        let message: String
    }

    static let usage = """
    usage: viewfinder-studio [OPTIONS]

    Viewfinder Studio: the desktop app. Browse and import into the photo library, take photos and
    videos, choose a video's cover frame, crop an avatar, trim a video, with progress you can cancel.

    options:
      --library DIR     the library to open (default: $VIEWFINDER_LIBRARY, else
                        $XDG_DATA_HOME/viewfinder/Library)
      --device ID       also offer this camera: 'virtual' (a test pattern) or a /dev/video path
      --cover VIDEO     open VIDEO in the cover chooser (the cover is saved beside it)
      --avatar PHOTO    open PHOTO in the avatar editor (the avatar is saved beside it)
      --trim VIDEO      open VIDEO in the trimmer (the trimmed copy is saved beside it)
      --camera          start on the camera screen
      --dark, --light   start with the dark or the light theme
      --script FILE     play the user actions in FILE, one per line, and print what happens as
                        JSON lines (used by the tests; see Tests/StudioTests)
      -h, --help        show this help
      --version         show the version

    keys: Ctrl+I import, Ctrl+Q quit, Escape back, Ctrl+Return done, Ctrl+Shift+D dark/light,
          Space play the trim range

    """

    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        var options = StudioOptions()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count, !arguments[index].isEmpty else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func setInitial(_ initial: Initial) throws(UsageError) {
            guard options.initial == nil else { throw UsageError(message: "open one file at a time (--cover, --avatar, --trim, --camera)") }
            options.initial = initial
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "-h", "--help": return .help
            case "--version": return .version
            case "--library": options.library = URL(fileURLWithPath: try value(argument))
            case "--device": options.device = try value(argument)
            case "--cover": try setInitial(.cover(URL(fileURLWithPath: try value(argument))))
            case "--avatar": try setInitial(.avatar(URL(fileURLWithPath: try value(argument))))
            case "--trim": try setInitial(.trim(URL(fileURLWithPath: try value(argument))))
            case "--camera": try setInitial(.camera)
            case "--dark": options.darkTheme = true
            case "--light": options.darkTheme = false
            case "--script": options.script = URL(fileURLWithPath: try value(argument))
            default:
                throw UsageError(message: argument.hasPrefix("-") ? "unknown option '\(argument)'" : "unexpected argument '\(argument)'")
            }
            index += 1
        }
        return .run(options)
    }
}
