import CommandLineKit
import Foundation
import StudioAutomation
import ViewfinderCore

/// `viewfinder-studio pick KIND …`: which picker to open for another program, and how. Read
/// with the CLI's own parser; every mistake is a usage error (exit 2).
struct PickRequest: Equatable {
    enum Kind: String, CaseIterable {
        case media, cover, avatar, photo, video
    }

    enum MediaType: String {
        case photo, video, any
    }

    /// How the result is printed: JSON (for programs), or one path per line (for shell scripts).
    enum PrintForm: String {
        case json, paths
    }

    var kind: Kind
    /// The file given (cover: VIDEO, avatar: PHOTO).
    var input: URL?
    var type: MediaType = .any
    var multiple = 1
    var maxDuration: MediaTime?
    var camera = false
    var convert = "auto"
    var output: URL?
    var shape = "circle"
    var size = 512
    var quality = "medium"
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

    /// Each kind's options, in the order `--help` lists them.
    static let options: [Kind: [OptionSpec]] = [
        .media: [
            OptionSpec("type", value: "photo|video|any", help: N_("The media types offered (default: any).")),
            OptionSpec("multiple", value: "N", help: N_("Let the user choose up to N items, numbered in order, then Done.")),
            maxDuration.withHelp(N_("Videos longer than S seconds cannot be chosen (the cell says why).")).specs[0],
            OptionSpec("camera", help: N_("Offer the camera as a source too.")),
            OptionSpec("folder", value: "DIR", help: N_("Pick from the photos and videos in DIR itself, with no library (not with --library).")),
        ],
        .cover: [
            maxDuration.withHelp(N_("Refuse videos longer than S seconds (default 30).")).specs[0],
            OptionSpec("convert", value: "auto|highest|passthrough", help: N_("auto: QuickTime to MP4 first; highest: always convert; passthrough: never.")),
            OptionSpec("output", short: "o", value: "COVER", help: N_("Where the cover goes (default: beside the video, or here).")),
        ],
        .avatar: [
            OptionSpec("camera", help: N_("Take the photo with the camera first.")),
            OptionSpec("shape", value: "circle|square", help: N_("The crop's shape (default circle).")),
            OptionSpec("size", value: "N", help: N_("The avatar's side in pixels (default 512).")),
            OptionSpec("output", short: "o", value: "PATH", help: N_("Where the avatar goes (default: beside the photo, or here).")),
        ],
        .photo: captureOptions,
        .video: captureOptions,
    ]

    static let captureOptions = [
        OptionSpec("camera", help: N_("Take it with the camera (required: the camera is the source).")),
        OptionSpec("edit", help: N_("A photo: crop it in the editor after Take Photo (arrows pan, +/- zoom, Ctrl+Return done).")),
        OptionSpec("ratio", value: "free|W:H", help: N_("The editor's crop: free keeps the photo's shape (default), W:H is fixed.")),
        OptionSpec("quality", value: "high|medium|low", help: N_("A video's quality (default medium).")),
        maxDuration.specs[0],
    ]

    /// `--max-duration S`, more than 0 seconds: declared and read once for every kind that
    /// takes it, each kind's help saying what it does there (this one is photo and video's).
    static let maxDuration = SharedOption.maxDuration(help: N_("Stop a video after S seconds."), zeroMeansNoLimit: false)

    /// Options every kind takes (the app's own).
    static let common: [OptionSpec] = StudioOptions.library.specs + [StudioOptions.device] + StudioOptions.theme.specs + [
        OptionSpec("print", value: "json|paths", help: N_("Print the result as JSON (default) or as the files made or chosen, one per line.")),
    ] + StudioOptions.script.specs

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
        if let text = parsed.value("type") {
            // TRANSLATORS: the reasons given to `parsed.invalid` follow the option's name and a
            // colon ("--type: photo, video or any, not 'x'"); {value} is what was given.
            guard let type = MediaType(rawValue: text) else { throw parsed.invalid("type", tr("photo, video or any, not '{value}'", ["value": text])) }
            request.type = type
        }
        request.multiple = try parsed.integer("multiple", in: 1...10_000, default: 1)
        request.maxDuration = try parsed[Self.maxDuration].maximum(default: nil)
        request.camera = parsed.flag("camera")
        request.folder = parsed.value("folder").map { URL(fileURLWithPath: $0) }
        if request.folder != nil && parsed.isGiven(StudioOptions.library) {
            throw UsageError(message: tr("pick from --library DIR or --folder DIR, not both"), command: "pick")
        }
        if request.folder != nil && request.camera {
            throw UsageError(message: tr("--camera keeps what it takes in the library's Captures; it cannot be used with --folder"), command: "pick")
        }
        if let text = parsed.value("convert") {
            guard ["auto", "highest", "passthrough"].contains(text) else { throw parsed.invalid("convert", tr("auto, highest or passthrough, not '{value}'", ["value": text])) }
            request.convert = text
        }
        request.output = parsed.value("output").map { URL(fileURLWithPath: $0) }
        if let text = parsed.value("shape") {
            guard ["circle", "square"].contains(text) else { throw parsed.invalid("shape", tr("circle or square, not '{value}'", ["value": text])) }
            request.shape = text
        }
        request.size = try parsed.integer("size", in: 16...4096, default: 512)
        if let text = parsed.value("quality") {
            guard ["high", "medium", "low"].contains(text) else { throw parsed.invalid("quality", tr("high, medium or low, not '{value}'", ["value": text])) }
            request.quality = text
        }
        request.edit = parsed.flag("edit")
        if let text = parsed.value("print") {
            guard let form = PrintForm(rawValue: text) else { throw parsed.invalid("print", tr("json or paths, not '{value}'", ["value": text])) }
            request.print = form
        }
        if let text = parsed.value("ratio") {
            let sides = text.split(separator: ":").compactMap { Double($0) }
            guard text == "free" || (sides.count == 2 && sides.allSatisfy { $0.isFinite && $0 > 0 } && sides[0] / sides[1] >= 0.01 && sides[0] / sides[1] <= 100) else {
                throw parsed.invalid("ratio", tr("free or W:H with two positive numbers (such as 16:9), not '{value}'", ["value": text]))
            }
            request.ratio = text == "free" ? nil : sides[0] / sides[1]
            guard request.edit else { throw UsageError(message: tr("--ratio is the editor's: add --edit"), command: "pick") }
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
