import CommandLineKit
import Foundation
import ViewfinderCore

/// What `viewfinder-studio` was asked to do, read with the CLI's own parser (CommandLineKit).
struct StudioOptions {
    /// The library folder (`--library`, else the same default as the CLI's).
    var library = OutputLocation.defaultLibraryFolder()
    /// A camera to offer besides the real ones (`--device virtual`), or a device path.
    var device: String?
    /// A file to open straight away, and on which screen.
    var initial: Initial?
    /// The theme to start with; nil follows the desktop.
    var darkTheme: Bool?
    /// A script of user actions to play (tests and demos).
    var script: URL?
    /// Files to show with what can be done with each (`viewfinder-studio FILE…`, "Open with").
    var files: [URL] = []
    /// Started by D-Bus activation (`--gapplication-service`): wait for what the desktop sends.
    var service = false
    /// `--portal`: serve the desktop portal's file chooser instead of opening a window.
    var portal = false

    enum Initial: Equatable {
        case cover(URL), avatar(URL), trim(URL), camera, motion(URL)
    }

    enum Parsed {
        case run(StudioOptions), help, version
        /// `--man` / `--completions SHELL`: the manual page or a completion script.
        case manual
        case completions(ShellCompletion)
        /// `pick KIND …`: one picker for another program.
        case pick(PickRequest, StudioOptions)
        case pickHelp
    }

    /// Set for `pick`: the picker to open instead of the library.
    var pick: PickRequest?

    /// The settings `pick` takes too: declared here once, read by `readShared`.
    static let library = SharedOption.library(help: N_("The library to open (default: $VIEWFINDER_LIBRARY, else $XDG_DATA_HOME/viewfinder/Library)."))
    static let device = TypedOption.text("device", value: "ID[,ID]",
                                         help: N_("Also offer these cameras: 'virtual', 'virtual-front' (test patterns) or /dev/video paths."))
    static let theme = SharedOption.theme(dark: N_("Start with the dark theme (default: as the desktop prefers)."),
                                          light: N_("Start with the light theme (default: as the desktop prefers)."))
    static let script = SharedOption.script(help: N_("Play the steps in FILE, one per line, printing what happens as JSON lines ('pick --help' lists the steps)."))

    /// Reads the settings the app and `pick` share (`library`, `device`, `dark`, `light`,
    /// `script`).
    mutating func readShared(_ parsed: ParsedArguments) throws(UsageError) {
        library = try parsed[Self.library]
        device = try parsed[Self.device]
        script = try parsed[Self.script]
        darkTheme = try parsed[Self.theme].map { $0 == .dark }
    }

    // The app's own options, each declared once with its type.
    static let cover = TypedOption.path("cover", value: "VIDEO", help: N_("Open VIDEO in the cover chooser (the cover is saved beside it)."))
    static let avatar = TypedOption.path("avatar", value: "PHOTO", help: N_("Open PHOTO in the avatar editor (the avatar is saved beside it)."))
    static let trim = TypedOption.path("trim", value: "VIDEO", help: N_("Open VIDEO in the trimmer (the trimmed copy is saved beside it)."))
    static let camera = TypedOption.flag("camera", help: N_("Start on the camera screen."))
    static let motion = TypedOption.path("motion", value: "SCENE",
                                         help: N_("Play the Motion scene SCENE (JSON, as 'viewfinder animate' takes) in a window, turned in 3D by GTK."))
    static let service = TypedOption.flag("gapplication-service",
                                          help: N_("Start as a D-Bus service and wait for the files the desktop sends (its 'Open with' starts the app so)."))
    static let portal = TypedOption.flag("portal", help: N_("Serve the desktop's file chooser portal: photo and video requests open Viewfinder's picker, the rest go to the desktop's own chooser (D-Bus starts it so; see the README)."))
    static let version = TypedOption.flag("version", help: N_("Show the version."))
    static let manual = TypedOption.flag("man", help: N_("Print the manual page (roff; 'viewfinder-studio --man | man -l -' shows it)."))
    /// `--completions SHELL`: nil when absent.
    static let completions = TypedOption<ShellCompletion?>("completions", value: "SHELL", help: N_("Print the completion script for bash, zsh or fish."),
                                                           absent: { nil }) { shell throws(InvalidValueError) in
        try ShellCompletion(optionValue: shell)
    }
    static let help = TypedOption.flag("help", short: "h", help: N_("Show this help."))

    /// The app's options, in the order `--help` lists them.
    static let options = OptionSpec.list(library, device, cover, avatar, trim, camera, motion, theme, script,
                                         service, portal, version, manual, completions, help)

    /// The app, its options and `pick`'s, for the manual page and the completions (its texts
    /// marked for translation with `N_`).
    static var reference: ProgramReference {
        let pickOptions = PickRequest.Kind.allCases.flatMap { PickRequest.options[$0] ?? [] } + PickRequest.common
            + [OptionSpec("help", short: "h", help: N_("Show pick's help."))]
        var seen = Set<String>()
        let pick = ProgramReference.Entry(
            name: "pick", summary: N_("Open one picker in its own window for another program, and print the result as JSON."),
            synopsis: "media|cover|avatar|photo|video [OPTIONS] [FILE]",
            discussion: N_("""
            Cancelled (Back, Escape, the window closed): nothing on standard output, exit 3. An error: \
            one line on standard error, exit 1. Bad usage: exit 2. 'viewfinder-studio pick --help' lists \
            each kind's options and the JSON it prints.
            """),
            options: pickOptions.filter { seen.insert($0.name).inserted },
            verbs: PickRequest.Kind.allCases.map(\.rawValue))
        return ProgramReference(
            name: "viewfinder-studio", summary: N_("the Viewfinder desktop app, and pickers for other programs"),
            synopsis: ["[OPTIONS] [FILE…]", "pick media|cover|avatar|photo|video [OPTIONS] [FILE]"],
            description: N_("""
            Files given (paths or file:// URIs) open on a screen that lists each with what can be done \
            with it: choose a video's cover, trim it, crop a photo into an avatar, import into the library. \
            One Viewfinder Studio runs per desktop session: a second start hands its files to it. \
            Viewfinder Studio browses and imports into the photo library, takes photos and videos, chooses \
            a video's cover frame (and saves it into the video), plays a Live Photo and chooses its key \
            photo, crops an avatar (starting on the face, with straightening), trims a video, with \
            progress that can be cancelled.
            """),
            version: ViewfinderVersion.current, options: options, commands: [pick],
            exitStatus: N_("0 when the app (or a pick) ended normally; 1 on an error; 2 for bad usage; 3 when a pick was cancelled."),
            seeAlso: ["viewfinder(1)"])
    }

    static var usage: String {
        // TRANSLATORS: the synopsis of `viewfinder-studio --help`: translate "usage" and "see"
        // only, and align the second line's command under the first's.
        let synopsis = tr("""
            usage: viewfinder-studio [OPTIONS] [FILE…]
                   viewfinder-studio pick media|cover|avatar|photo|video … (see 'viewfinder-studio pick --help')
            """)
        let description = tr("""
            Viewfinder Studio: the desktop app. Browse and import into the photo library, take photos and
            videos, choose a video's cover frame (and save it into the video), play a Live Photo and choose
            its key photo, crop an avatar, trim a video, with progress you can cancel. FILEs (paths or
            file:// URIs) open on a screen listing what can be done with each; one Studio runs per
            desktop session, and a second start hands its FILEs to it.
            """)
        return """
            \(synopsis)

            \(description)

            \(tr("options:"))
            \(OptionSpec.helpLines(options))
            \(tr("keys:"))
            \(StudioShortcuts.helpText)

            """
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
        if arguments.first == "pick" {
            var app = StudioOptions()
            guard let request = try PickRequest.parse(Array(arguments.dropFirst()), into: &app) else { return .pickHelp }
            app.pick = request
            return .pick(request, app)
        }
        let parsed = try ParsedArguments(arguments, options: options.filter { $0.name != "help" },
                                         positionalCount: 0...Int.max, command: "viewfinder-studio")
        if parsed.wantsHelp { return .help }
        if try parsed[version] { return .version }
        if try parsed[manual] { return .manual }
        if let completion = try parsed[completions] { return .completions(completion) }
        var result = StudioOptions()
        try result.readShared(parsed)
        result.files = try parsed.positionals.map(localFile)
        result.service = try parsed[service]
        result.portal = try parsed[portal]
        let initial: [Initial] = [
            try parsed[cover].map { .cover($0) },
            try parsed[avatar].map { .avatar($0) },
            try parsed[trim].map { .trim($0) },
            try parsed[camera] ? .camera : nil,
            try parsed[motion].map { .motion($0) },
        ].compactMap { $0 }
        guard initial.count <= 1 else {
            throw UsageError(message: tr("open one file at a time (--cover, --avatar, --trim, --camera, --motion)"), command: nil)
        }
        result.initial = initial.first
        guard result.initial == nil || result.files.isEmpty else {
            throw UsageError(message: tr("open FILEs or one of --cover, --avatar, --trim, --camera, --motion, not both"), command: nil)
        }
        guard !result.portal || (result.initial == nil && result.files.isEmpty && result.script == nil && !result.service) else {
            throw UsageError(message: tr("--portal opens no window of its own: it takes no FILE, screen, --script or --gapplication-service"), command: nil)
        }
        return .run(result)
    }

    /// A FILE argument as a local path: a path as it is, a `file://` URI (the desktop's "Open
    /// with" passes those) decoded; other URIs are refused, since only local files are read.
    static func localFile(_ argument: String) throws(UsageError) -> URL {
        let scheme = argument.prefix { $0 != ":" }
        let isURI = argument.contains("://") && !scheme.isEmpty
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        guard isURI else { return URL(fileURLWithPath: argument) }
        guard scheme.lowercased() == "file", let url = URL(string: argument), url.isFileURL, !url.path.isEmpty else {
            throw UsageError(message: tr("'{uri}' is not a local file: only paths and file:// URIs open", ["uri": argument]), command: nil)
        }
        return url
    }
}
