// swift-tools-version:6.0
import PackageDescription

// Layers (see ../shared/design.md), one folder each under Sources/: Core → CShims → Engines →
// Features → UI → Apps. Targets keep their names; `path:` says which layer each lives in.
// Dependencies only point down.
let package = Package(
    name: "Viewfinder",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "ViewfinderCore", targets: ["ViewfinderCore"]),
        .library(name: "MediaIO", targets: ["MediaIO"]),
        .library(name: "Imaging", targets: ["Imaging"]),
        .library(name: "CoverPicker", targets: ["CoverPicker"]),
        .library(name: "VideoEditing", targets: ["VideoEditing"]),
        .library(name: "HUD", targets: ["HUD"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "MotionRenderer", targets: ["MotionRenderer"]),
        .library(name: "AvatarCrop", targets: ["AvatarCrop"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Faces", targets: ["Faces"]),
        .library(name: "MediaLibrary", targets: ["MediaLibrary"]),
        .library(name: "Capture", targets: ["Capture"]),
        // The thin GTK layer the components stand on: Application, Window, Overlay and the widgets
        // an app that embeds ViewfinderUI builds its window from.
        .library(name: "StudioKit", targets: ["StudioKit"]),
        .library(name: "ViewfinderUI", targets: ["ViewfinderUI"]),
        .executable(name: "viewfinder", targets: ["viewfinder"]),
        .executable(name: "viewfinder-studio", targets: ["ViewfinderStudio"]),
    ],
    targets: [
        // Core: Foundation only.
        .target(name: "ViewfinderCore", dependencies: ["CIntl"], path: "Sources/Core/ViewfinderCore"),

        // C shims.
        .systemLibrary(
            name: "CFFmpeg", path: "Sources/CShims/CFFmpeg",
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev", "libavdevice-dev"])]
        ),
        // libvips, gexiv2, GTK and libadwaita: their pkg-config files also list -pthread (and GTK's
        // -msse), which SwiftPM drops with a "prohibited flag(s)" warning; the include paths are
        // what the shims and the GTK layer need, and glibc links threads without the flag.
        // Swift code imports CVipsShim alone, whose header uses opaque types.
        .systemLibrary(name: "CVips", path: "Sources/CShims/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CGExiv2", path: "Sources/CShims/CGExiv2", pkgConfig: "gexiv2", providers: [.apt(["libgexiv2-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CShims/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCairo", path: "Sources/CShims/CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
        // libimagequant, the GIF writer's palette maker (already loaded with libvips, which uses it).
        .systemLibrary(name: "CImageQuant", path: "Sources/CShims/CImageQuant", pkgConfig: "imagequant", providers: [.apt(["libimagequant-dev"])]),
        // OpenSSL's libcrypto, for SHA-256 (the library names originals by their content).
        // glibc's gettext (libintl.h): nothing to link.
        .systemLibrary(name: "CIntl", path: "Sources/CShims/CIntl", providers: [.apt(["libc6-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CShims/CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CGtk", path: "Sources/CShims/CGtk", pkgConfig: "gtk4", providers: [.apt(["libgtk-4-dev"])]),
        // libadwaita 1.2: the GNOME look (application window, header bar, toasts, leaflet, the
        // style manager that follows the desktop's light or dark preference).
        .systemLibrary(name: "CAdwaita", path: "Sources/CShims/CAdwaita", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev"])]),
        // PipeWire (cameras on today's desktops, libcamera's among them) and GIO's D-Bus client
        // (the Camera portal that hands a sandboxed app its PipeWire connection). Linked
        // directly rather than through GStreamer: one library, no pipeline to parse, and a
        // picture is copied once from PipeWire's buffer into the frame FFmpeg encodes.
        // libpipewire's pkg-config file lists -D_REENTRANT and gio-unix-2.0's -pthread, which
        // SwiftPM drops with the same warning as above (glibc needs neither).
        .systemLibrary(name: "CPipeWire", path: "Sources/CShims/CPipeWire", pkgConfig: "libpipewire-0.3",
                       providers: [.apt(["libpipewire-0.3-dev"])]),
        .systemLibrary(name: "CGio", path: "Sources/CShims/CGio", pkgConfig: "gio-unix-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // SPA's API is inline functions and macros over variable-size pods: a plain-C face over
        // the few calls capture needs (list cameras, read a stream, ask the portal).
        .target(name: "CPipeWireShim", dependencies: ["CPipeWire", "CGio"], path: "Sources/CShims/CPipeWireShim"),
        .target(
            name: "CVipsShim",
            dependencies: ["CVips"], path: "Sources/CShims/CVipsShim",
            linkerSettings: [.linkedLibrary("lcms2"), .linkedLibrary("heif")]
        ),
        // gexiv2 (exiv2's GObject binding) behind a plain-C face: photo metadata, location stripping.
        .target(
            name: "CExivShim", dependencies: ["CGExiv2"], path: "Sources/CShims/CExivShim"
        ),

        // OpenCV's cascade face detector behind a plain-C face (C++ inside). Debian's OpenCV
        // headers sit under /usr/include/opencv4, and the only pkg-config file naming that folder
        // comes with libopencv-dev, which pulls in every OpenCV module (VTK and Qt among them):
        // the shim's `opencv4` folder is a symbolic link to it, reached by a package-relative
        // header path, which a package depending on Viewfinder by version may use.
        .target(
            name: "CFaceShim", path: "Sources/CShims/CFaceShim",
            exclude: ["opencv4"],
            cxxSettings: [.headerSearchPath("opencv4")],
            linkerSettings: [.linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_imgproc"), .linkedLibrary("opencv_core")]
        ),

        // Engines.
        .target(name: "MediaIO", dependencies: ["ViewfinderCore", "CFFmpeg", "CImageQuant", "CPipeWireShim"], path: "Sources/Engines/MediaIO"),
        .target(name: "Imaging", dependencies: ["ViewfinderCore", "CVips", "CVipsShim", "CCairo", "CExivShim"], path: "Sources/Engines/Imaging"),
        .target(name: "Store", dependencies: ["ViewfinderCore", "CSQLite", "CCrypto"], path: "Sources/Engines/Store"),
        .target(name: "Faces", dependencies: ["ViewfinderCore", "CFaceShim"], path: "Sources/Engines/Faces"),

        // Features.
        .target(name: "CoverPicker", dependencies: ["ViewfinderCore", "MediaIO", "Imaging", "Faces"], path: "Sources/Features/CoverPicker"),
        .target(name: "VideoEditing", dependencies: ["ViewfinderCore", "MediaIO"], path: "Sources/Features/VideoEditing"),
        .target(name: "HUD", dependencies: ["ViewfinderCore"], path: "Sources/Features/HUD"),
        .target(name: "Motion", dependencies: ["ViewfinderCore"], path: "Sources/Features/Motion"),
        .target(name: "MotionRenderer", dependencies: ["ViewfinderCore", "Motion", "Imaging", "MediaIO"], path: "Sources/Features/MotionRenderer"),
        .target(name: "AvatarCrop", dependencies: ["ViewfinderCore", "Imaging", "Faces"], path: "Sources/Features/AvatarCrop"),
        .target(name: "MediaLibrary", dependencies: ["ViewfinderCore", "MediaIO", "Imaging", "Store", "CoverPicker"], path: "Sources/Features/MediaLibrary"),
        .target(name: "Capture", dependencies: ["ViewfinderCore", "MediaIO", "Imaging"], path: "Sources/Features/Capture"),

        // The desktop app's thin GTK layer: object ownership, signals, the main loop, drawing.
        // Imaging: the box blur, premultiplied pixels and homographies it shares with the canvas.
        .target(name: "StudioKit", dependencies: ["ViewfinderCore", "Imaging", "CGtk", "CAdwaita", "CCairo"], path: "Sources/UI/StudioKit"),

        // Components: the GTK 4 pickers, cover chooser, crop editor, camera, trimmer and HUD that
        // any Swift GTK app embeds (and Studio runs on).
        .target(
            name: "ViewfinderUI",
            dependencies: ["ViewfinderCore", "StudioKit", "MediaIO", "Imaging", "CoverPicker", "VideoEditing", "HUD",
                           "AvatarCrop", "MediaLibrary", "Capture", "Motion", "MotionRenderer"], path: "Sources/UI/ViewfinderUI"
        ),

        // Front ends. CommandLineKit is the CLI's generic option parser, a library so the fuzz
        // targets can reach it.
        .target(name: "CommandLineKit", dependencies: ["ViewfinderCore"], path: "Sources/Apps/CommandLineKit"),
        .executableTarget(
            name: "viewfinder",
            dependencies: ["CommandLineKit", "ViewfinderCore", "MediaIO", "Imaging", "CoverPicker", "VideoEditing", "HUD", "AvatarCrop", "MediaLibrary", "Capture", "Motion", "MotionRenderer"], path: "Sources/Apps/viewfinder"
        ),
        // The script driver (`--script`): plays steps against an app through `ScriptedApp`, which
        // Studio conforms to; kept out of the components, which never import it.
        .target(
            name: "StudioAutomation",
            dependencies: ["ViewfinderCore", "StudioKit", "ViewfinderUI", "HUD", "MediaLibrary"], path: "Sources/Apps/StudioAutomation"
        ),
        .executableTarget(
            name: "ViewfinderStudio",
            dependencies: ["CommandLineKit", "StudioAutomation", "ViewfinderCore", "StudioKit", "ViewfinderUI", "MediaIO", "Imaging", "CoverPicker",
                           "VideoEditing", "HUD", "AvatarCrop", "MediaLibrary", "Capture", "Motion"], path: "Sources/Apps/ViewfinderStudio"
        ),

        // The programs in Examples/, which README.md shows verbatim (a test holds them equal), are
        // executable targets so `make test` builds them with everything else; the package checks
        // build the README's copies again in a package that depends on this one by version.
        .executableTarget(name: "cover-example", dependencies: ["CoverPicker", "Imaging"], path: "Examples/CoverExample"),
        .executableTarget(name: "hud-example", dependencies: ["HUD", "ViewfinderCore"], path: "Examples/HUDExample"),
        .executableTarget(
            name: "picker-example",
            dependencies: ["ViewfinderUI", "StudioKit", "MediaLibrary", "Capture"],
            path: "Examples/PickerExample"
        ),

        // libFuzzer targets (`make fuzz`). Built with -sanitize=fuzzer and -DFUZZING, each one's
        // main runs libFuzzer; in a normal build each is a replay tool that runs its inputs once.
        .systemLibrary(name: "CLibFuzzer", path: "Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Support"),
        .executableTarget(name: "FuzzScene", dependencies: ["Motion", "FuzzSupport"], path: "Fuzz/FuzzScene"),
        .executableTarget(name: "FuzzTime", dependencies: ["ViewfinderCore", "FuzzSupport"], path: "Fuzz/FuzzTime"),
        .executableTarget(name: "FuzzCropSpec", dependencies: ["ViewfinderCore", "FuzzSupport"], path: "Fuzz/FuzzCropSpec"),
        .executableTarget(name: "FuzzCommandLine", dependencies: ["CommandLineKit", "FuzzSupport"], path: "Fuzz/FuzzCommandLine"),
        .executableTarget(name: "FuzzPhotoProbe", dependencies: ["Imaging", "FuzzSupport"], path: "Fuzz/FuzzPhotoProbe"),
        .executableTarget(name: "FuzzVideoProbe", dependencies: ["MediaIO", "FuzzSupport"], path: "Fuzz/FuzzVideoProbe"),
        .executableTarget(name: "FuzzMovieBox", dependencies: ["MediaIO", "ViewfinderCore", "FuzzSupport"], path: "Fuzz/FuzzMovieBox"),
        .executableTarget(name: "FuzzParameterSets", dependencies: ["MediaIO", "FuzzSupport"], path: "Fuzz/FuzzParameterSets"),
        .executableTarget(name: "FuzzCoverPacket", dependencies: ["MediaIO", "ViewfinderCore", "FuzzSupport"], path: "Fuzz/FuzzCoverPacket"),

        // Tests mirror the sources. The support target generates fixtures with the ffmpeg CLI
        // (the tests' independent oracle) and finds the shared media corpus and the built tool.
        .target(name: "ViewfinderTestSupport", dependencies: ["ViewfinderCore"], path: "Tests/Support"),
        .testTarget(name: "ViewfinderCoreTests", dependencies: ["ViewfinderCore", "ViewfinderTestSupport"], path: "Tests/Core/ViewfinderCoreTests"),
        .testTarget(name: "MediaIOTests", dependencies: ["ViewfinderCore", "MediaIO", "CPipeWireShim", "ViewfinderTestSupport"], path: "Tests/Engines/MediaIOTests"),
        .testTarget(name: "ImagingTests", dependencies: ["ViewfinderCore", "Imaging", "ViewfinderTestSupport"], path: "Tests/Engines/ImagingTests"),
        .testTarget(
            name: "CoverPickerTests",
            dependencies: ["ViewfinderCore", "MediaIO", "CoverPicker", "ViewfinderTestSupport"], path: "Tests/Features/CoverPickerTests"
        ),
        .testTarget(
            name: "VideoEditingTests",
            dependencies: ["ViewfinderCore", "MediaIO", "VideoEditing", "ViewfinderTestSupport"], path: "Tests/Features/VideoEditingTests"
        ),
        .testTarget(name: "HUDTests", dependencies: ["ViewfinderCore", "HUD"], path: "Tests/Features/HUDTests"),
        .testTarget(name: "MotionTests", dependencies: ["ViewfinderCore", "Motion", "ViewfinderTestSupport"], path: "Tests/Features/MotionTests"),
        .testTarget(
            name: "MotionRendererTests",
            dependencies: ["ViewfinderCore", "Motion", "Imaging", "MotionRenderer", "ViewfinderTestSupport"], path: "Tests/Features/MotionRendererTests"
        ),
        .testTarget(
            name: "AvatarCropTests",
            dependencies: ["ViewfinderCore", "Imaging", "Faces", "AvatarCrop", "ViewfinderTestSupport"], path: "Tests/Features/AvatarCropTests"
        ),
        .testTarget(name: "StoreTests", dependencies: ["ViewfinderCore", "Store", "ViewfinderTestSupport"], path: "Tests/Engines/StoreTests"),
        .testTarget(
            name: "MediaLibraryTests",
            dependencies: ["ViewfinderCore", "MediaIO", "Imaging", "Store", "MediaLibrary", "ViewfinderTestSupport"], path: "Tests/Features/MediaLibraryTests"
        ),
        .testTarget(name: "CaptureTests", dependencies: ["ViewfinderCore", "MediaIO", "Capture", "Imaging", "ViewfinderTestSupport"], path: "Tests/Features/CaptureTests"),
        .testTarget(name: "CommandLineKitTests", dependencies: ["CommandLineKit"], path: "Tests/Apps/CommandLineKitTests"),
        .testTarget(name: "ViewfinderCLITests", dependencies: ["ViewfinderCore", "Store", "ViewfinderTestSupport"], path: "Tests/Apps/ViewfinderCLITests"),
        .testTarget(name: "StudioKitTests", dependencies: ["ViewfinderCore", "StudioKit"], path: "Tests/UI/StudioKitTests"),
        .testTarget(name: "ViewfinderUITests", dependencies: ["ViewfinderCore", "ViewfinderUI", "MediaLibrary", "Capture", "HUD", "StudioKit"], path: "Tests/UI/ViewfinderUITests"),
        // The script driver against a fake app: no GTK, no display.
        .testTarget(
            name: "StudioAutomationTests",
            dependencies: ["StudioAutomation", "ViewfinderUI", "StudioKit", "MediaLibrary"], path: "Tests/Apps/StudioAutomationTests"
        ),
        // The desktop app, driven under Xvfb; reads its screenshots with Imaging.
        .testTarget(name: "StudioTests", dependencies: ["ViewfinderCore", "Imaging", "AvatarCrop", "MediaLibrary", "Capture", "ViewfinderTestSupport"], path: "Tests/Apps/StudioTests",
                    // The HUD's golden screenshots, read from the source tree by path.
                    exclude: ["Goldens", "atspi-read.py", "portal-client.py"]),
    ],
    swiftLanguageModes: [.v6]
)
