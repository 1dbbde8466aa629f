import Foundation
import Testing
import ViewfinderTestSupport

@testable import Capture

@Suite("Capture: what a file chooser request asks for")
struct FileChooserRequestTests {
    typealias Request = FileChooserRequest

    static func request(_ rules: [Request.Rule], multiple: Bool = false, directory: Bool = false) -> Request {
        Request(filters: [Request.Filter(name: "Files", rules: rules)], multiple: multiple, directory: directory)
    }

    static let photoExtensions = Set(MediaFileType.all.filter { $0.kind == .photo }.flatMap(\.extensions))
    static let videoExtensions = Set(MediaFileType.all.filter { $0.kind == .video }.flatMap(\.extensions))

    @Test("image/* and video/* are every photo or video type; a type's MIME name is its extensions; the picker then refuses nothing, or only other types")
    func mimeTypes() {
        let images = Self.request([.mimeType("image/*")])
        #expect(images.mediaKinds == [.photo])
        #expect(images.mediaExtensions == Self.photoExtensions)
        #expect(images.acceptedExtensions == nil)
        let both = Self.request([.mimeType("VIDEO/*"), .mimeType("image/*")])
        #expect(both.mediaKinds == [.photo, .video])
        #expect(both.acceptedExtensions == nil)
        let jpeg = Self.request([.mimeType("image/jpeg")])
        #expect(jpeg.mediaKinds == [.photo])
        #expect(jpeg.acceptedExtensions == ["jpg", "jpeg", "jpe"])
        let mixed = Self.request([.mimeType("image/png"), .mimeType("video/quicktime")])
        #expect(mixed.mediaKinds == [.photo, .video])
        #expect(mixed.acceptedExtensions == ["png", "mov", "qt"])
    }

    @Test("globs *.EXT take exactly the extensions they match, character classes and case included")
    func globs() {
        #expect(Self.request([.glob("*.jpg")]).acceptedExtensions == ["jpg"])
        #expect(Self.request([.glob("*.[jJ][pP][gG]"), .glob("*.PNG")]).acceptedExtensions == ["jpg", "png"])
        #expect(Self.request([.glob("*.mp4")]).mediaKinds == [.video])
        #expect(Self.request([.glob("*.tif*")]).mediaExtensions == nil, "a second wildcard could match anything")
    }

    @Test("anything else is the desktop's chooser's: no filter, a folder, another type, a wide glob, one such rule among media ones, an empty filter")
    func notMedia() {
        #expect(Request(filters: []).mediaKinds == nil)
        #expect(Self.request([.mimeType("image/*")], directory: true).mediaKinds == nil)
        #expect(Self.request([.mimeType("text/plain")]).mediaKinds == nil)
        #expect(Self.request([.mimeType("image/svg+xml")]).mediaKinds == nil, "a photo type Viewfinder does not read")
        #expect(Self.request([.mimeType("application/*")]).mediaKinds == nil)
        #expect(Self.request([.glob("*")]).mediaKinds == nil)
        #expect(Self.request([.glob("*.txt")]).mediaKinds == nil)
        #expect(Self.request([.glob("photo.jpg")]).mediaKinds == nil)
        #expect(Self.request([]).mediaKinds == nil)
        let withAllFiles = Request(filters: [Request.Filter(name: "Images", rules: [.mimeType("image/*")]),
                                             Request.Filter(name: "All files", rules: [.glob("*")])])
        #expect(withAllFiles.mediaKinds == nil, "a program that also offers any file gets the chooser that shows any file")
        let current = Request(filters: [Request.Filter(name: "Images", rules: [.mimeType("image/*")])],
                              currentFilter: Request.Filter(name: "Text", rules: [.mimeType("text/plain")]))
        #expect(current.mediaKinds == nil)
    }

    @Test("a picker configuration with an empty extension list is refused; an asset of another type is refused with why")
    func configuration() throws {
        let sources = MediaSources(library: LibraryContents(all: [.photo], captures: []), cameras: [])
        #expect(throws: CaptureError.noMediaTypes) {
            try MediaPickerConfiguration(source: .photoLibrary, mediaTypes: [.photo], fileExtensions: []).validate(against: sources)
        }
        try MediaPickerConfiguration(source: .photoLibrary, mediaTypes: [.photo], fileExtensions: ["jpg"]).validate(against: sources)
    }

    @Test("the desktop entry claims exactly the MIME types of MediaFileType.all, and no extension names two types")
    func desktopEntry() throws {
        let entry = try String(contentsOf: TestPaths.repository.appendingPathComponent("data/org.viewfinder.Studio.desktop"), encoding: .utf8)
        let line = try #require(entry.split(separator: "\n").first { $0.hasPrefix("MimeType=") })
        let claimed = line.dropFirst("MimeType=".count).split(separator: ";").map(String.init)
        #expect(claimed == MediaFileType.all.map(\.mimeType))
        let extensions = MediaFileType.all.flatMap(\.extensions)
        #expect(Set(extensions).count == extensions.count)
    }
}
