import CommandLineKit
import CoverPicker
import Foundation
import MediaIO
import StudioAutomation
import ViewfinderCore

/// `viewfinder-studio pick KIND …`: which picker to open for another program, and how. Read
/// with the CLI's own parser; every mistake is a usage error (exit 2).
struct PickRequest: Equatable {
    enum Kind: String, CaseIterable {
        case media, cover, avatar, photo, video
    }

    enum MediaType: String, CaseIterable, Sendable {
        case photo, video, any
    }

    /// How the result is printed: JSON (for programs), or one path per line (for shell scripts).
    enum PrintForm: String, CaseIterable, Sendable {
        case json, paths
    }

    var kind: Kind
    /// The file given (cover: VIDEO, avatar: PHOTO).
    var input: URL?
    var type: MediaType = .any
    var multiple = 1
    var maxDuration: MediaTime?
    var camera = false
    var convert = CoverFlow.Conversion.auto
    var output: URL?
    var shape = CropShape.circle
    var size = 512
    var quality = CaptureQuality.medium
    /// `pick media --folder`: a plain folder to pick from instead of the library.
    var folder: URL?
    /// `pick photo --edit`: the crop step after Take Photo; `ratio` its width / height (nil: free).
    var edit = false
    var ratio: Double?

    /// Whether the pick reads or keeps anything in the library: a cover of a VIDEO given, or an
    /// avatar of a PHOTO given, neither opens nor creates one.
    var needsLibrary: Bool {
        switch kind {
        case .media: folder == nil
        case .cover: input == nil
        case .avatar: input == nil || camera
        case .photo, .video: true
        }
    }
    var print: PrintForm = .json
    /// The file extensions a picked item may have (a portal request's types); nil: any.
    var fileExtensions: Set<String>?

    // MARK: Options, each declared once with its type; a kind that gives one its own help
    // line uses `withHelp`, so the name and the reader stay the one declared here.

    static let type = TypedOption<MediaType>.choice("type", value: "photo|video|any", help: N_("The media types offered (default: any)."),
                                                    default: .any)
    static let multiple = TypedOption.integer("multiple", help: N_("Let the user choose up to N items, numbered in order, then Done."),
                                              in: 1...10_000, default: 1)
    /// `--max-duration S`, more than 0 seconds: declared and read once for every kind that
    /// takes it, each kind's help saying what it does there (this one is photo and video's).
    static let maxDuration = SharedOption.maxDuration(help: N_("Stop a video after S seconds."), zeroMeansNoLimit: false)
    static let camera = TypedOption.flag("camera", help: N_("Take it with the camera (required: the camera is the source)."))
    static let folder = TypedOption.path("folder", value: "DIR",
                                         help: N_("Pick from the photos and videos in DIR itself, with no library (not with --library)."))
    static let convert = TypedOption<CoverFlow.Conversion>.choice(
        "convert", value: "auto|highest|passthrough", help: N_("auto: QuickTime to MP4 first; highest: always convert; passthrough: never."),
        default: .auto)
    static let output = TypedOption.path("output", short: "o", value: "COVER", help: N_("Where the cover goes (default: beside the video, or here)."))
    static let shape = SharedOption.shape(value: "circle|square", help: N_("The crop's shape (default circle)."))
    static let size = TypedOption.integer("size", help: N_("The avatar's side in pixels (default 512)."), in: 16...4096, default: 512)
    static let edit = TypedOption.flag("edit", help: N_("A photo: crop it in the editor after Take Photo (arrows pan, +/- zoom, Ctrl+Return done)."))
    /// `--ratio free|W:H`: the editor's width / height, nil for free.
    static let ratio = TypedOption<Double?>("ratio", value: "free|W:H",
                                            help: N_("The editor's crop: free keeps the photo's shape (default), W:H is fixed."),
                                            absent: { nil }) { text throws(InvalidValueError) in
        if text == "free" { return nil }
        let sides = text.split(separator: ":").compactMap { Double($0) }
        guard sides.count == 2, sides.allSatisfy({ $0.isFinite && $0 > 0 }), sides[0] / sides[1] >= 0.01, sides[0] / sides[1] <= 100 else {
            throw InvalidValueError(tr("free or W:H with two positive numbers (such as 16:9), not '{value}'", ["value": text]))
        }
        return sides[0] / sides[1]
    }
    static let quality = TypedOption<CaptureQuality>.choice("quality", value: "high|medium|low", help: N_("A video's quality (default medium)."),
                                                            default: .medium)
    static let printForm = TypedOption<PrintForm>.choice(
        "print", value: "json|paths", help: N_("Print the result as JSON (default) or as the files made or chosen, one per line."), default: .json)

    /// Each kind's options, in the order `--help` lists them.
    static let options: [Kind: [OptionSpec]] = [
        .media: OptionSpec.list(type, multiple, maxDuration.withHelp(N_("Videos longer than S seconds cannot be chosen (the cell says why).")),
                                camera.withHelp(N_("Offer the camera as a source too.")), folder),
        .cover: OptionSpec.list(maxDuration.withHelp(N_("Refuse videos longer than S seconds (default 30).")), convert, output),
        .avatar: OptionSpec.list(camera.withHelp(N_("Take the photo with the camera first.")), shape, size,
                                 output.withHelp(N_("Where the avatar goes (default: beside the photo, or here)."), value: "PATH")),
        .photo: captureOptions,
        .video: captureOptions,
    ]

    static let captureOptions = OptionSpec.list(camera, edit, ratio, quality, maxDuration)

    /// Options every kind takes (the app's own).
    static let common = OptionSpec.list(StudioOptions.library, StudioOptions.device, StudioOptions.theme, printForm, StudioOptions.script)

    static var usage: String {
        // TRANSLATORS: the synopsis of `viewfinder-studio pick --help`: translate "usage" only,
        // and align the other lines' commands under the first's.
        let synopsis = tr("""
            usage: viewfinder-studio pick media [--type photo|video|any] [--multiple N] [--max-duration S] [--library DIR | --folder DIR] [--camera]
                   viewfinder-studio pick cover [VIDEO] [--max-duration S] [--convert auto|highest|passthrough] [-o COVER]
                   viewfinder-studio pick avatar [PHOTO] [--camera] [--shape circle|square] [--size N] [-o PATH]
                   viewfinder-studio pick photo --camera [--edit [--ratio free|W:H]]
                   viewfinder-studio pick video --camera [--quality high|medium|low] [--max-duration S]
            """)
        let description = tr("""
            Opens one picker in its own window for another program (as zenity does for dialogs), prints the
            result as JSON on stdout and exits 0. Cancelled (Back, Escape, the window closed): nothing on
            stdout, exit 3. An error: one line on stderr, exit 1. Bad usage: exit 2.
            """)
        // TRANSLATORS: the JSON each pick prints: keep the JSON ("id", "file", …), the kinds
        // (media, cover…) and the options as they are; translate the words around them.
        let results = tr("""
            results:
              media   [{{"id", "file", "kind", "width", "height", "duration", "date"}}, …] in the order picked
                      (--folder: "id" is the file's place in the folder sorted by name, from 1: the grid's
                      order until Newest or Oldest is chosen)
              cover   {{"video", "cover", "time", "frame"}}  (no VIDEO: the user picks one from the library first)
              avatar  {{"original", "avatar", "spec"}}  (spec replays with 'viewfinder avatar --spec')
              photo, video  {{"mediaType", "original", "file", "edited", "cropRect",
                             "metadata": {{"date", "width", "height", "orientation", "device"}}}}
                      (--edit: "edited" is the cropped PNG, "cropRect" {{"x", "y", "width", "height"}} in the original's pixels)
            """)
        let steps = tr("""
            script steps (--script FILE: one per line, # starts a comment; events print as JSON lines on stderr;
            a failed step ends the pick with exit 1, unless the pick had already ended, whose status stands):
            """)
        // TRANSLATORS: a heading of `pick --help`; {kinds} is the kind of pick the options are
        // for ("media", "cover", "photo, video"), as the command writes it.
        let heading = { (kinds: String) in tr("options ({kinds}):", ["kinds": kinds]) }
        return """
            \(synopsis)

            \(description)

            \(results)

            \(heading("media"))
            \(helpLines(options[.media] ?? []))
            \(heading("cover"))
            \(helpLines(options[.cover] ?? []))
            \(heading("avatar"))
            \(helpLines(options[.avatar] ?? []))
            \(heading("photo, video"))
            \(helpLines(captureOptions))
            \(tr("options (all):"))
            \(helpLines(common))
            \(steps)
            \(ScriptSteps.helpLines)

            """
    }

    /// The options as `--help` lists them, their help in the user's language.
    private static func helpLines(_ options: [OptionSpec]) -> String {
        OptionSpec.helpLines(options)
    }

    /// Parses the words after `pick`; `app` gets the app's own options.
    static func parse(_ arguments: [String], into app: inout StudioOptions) throws(UsageError) -> PickRequest? {
        guard let first = arguments.first, !first.hasPrefix("-") else {
            if arguments.contains("--help") || arguments.contains("-h") { return nil }
            throw UsageError(message: tr("pick what? media, cover, avatar, photo or video"), command: "pick")
        }
        guard let kind = Kind(rawValue: first) else {
            throw UsageError(message: tr("cannot pick '{kind}': media, cover, avatar, photo or video", ["kind": first]), command: "pick")
        }
        let takesFile = kind == .cover || kind == .avatar
        let parsed = try ParsedArguments(Array(arguments.dropFirst()), options: (options[kind] ?? []) + common,
                                         positionalCount: takesFile ? 0...1 : 0...0, command: "pick \(kind.rawValue)")
        if parsed.wantsHelp { return nil }
        var request = PickRequest(kind: kind)
        request.input = parsed.positionals.first.map { URL(fileURLWithPath: $0) }
        try app.readShared(parsed)
        request.type = try parsed[type]
        request.multiple = try parsed[multiple]
        request.maxDuration = try parsed[maxDuration].maximum(default: nil)
        request.camera = try parsed[camera]
        request.folder = try parsed[folder]
        if request.folder != nil && parsed.isGiven(StudioOptions.library) {
            throw UsageError(message: tr("pick from --library DIR or --folder DIR, not both"), command: "pick")
        }
        if request.folder != nil && request.camera {
            throw UsageError(message: tr("--camera keeps what it takes in the library's Captures; it cannot be used with --folder"), command: "pick")
        }
        request.convert = try parsed[convert]
        request.output = try parsed[output]
        request.shape = try parsed[shape] ?? .circle
        request.size = try parsed[size]
        request.quality = try parsed[quality]
        request.edit = try parsed[edit]
        request.print = try parsed[printForm]
        request.ratio = try parsed[ratio]
        if parsed.isGiven(ratio) && !request.edit {
            throw UsageError(message: tr("--ratio is the editor's: add --edit"), command: "pick")
        }
        if request.edit && kind != .photo {
            throw UsageError(message: tr("--edit crops a photo: use it with pick photo"), command: "pick")
        }
        if (kind == .photo || kind == .video) && !request.camera {
            throw UsageError(message: tr("pick {kind} takes it with the camera: add --camera", ["kind": kind.rawValue]), command: "pick")
        }
        if kind == .avatar && request.camera && request.input != nil {
            throw UsageError(message: tr("give a PHOTO or --camera, not both"), command: "pick")
        }
        return request
    }
}
