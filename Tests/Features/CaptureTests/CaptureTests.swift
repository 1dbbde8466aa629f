import Foundation
import Imaging
import MediaIO
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Capture

@Suite("Capture")
struct CaptureTests {
    @Test("a picker configuration is checked before any work")
    func configuration() throws {
        let none = MediaSources(library: nil, cameras: [])
        let full = LibraryContents(all: [.photo, .video], captures: [.photo, .video])
        let virtual = MediaSources(library: full, allowVirtualCamera: true, cameras: [])
        #expect(throws: CaptureError.noMediaTypes) {
            try MediaPickerConfiguration(source: .camera, mediaTypes: []).validate(against: virtual)
        }
        #expect(throws: CaptureError.sourceUnavailable(.camera)) {
            try MediaPickerConfiguration(source: .camera, mediaTypes: [.photo]).validate(against: none)
        }
        #expect(throws: CaptureError.sourceUnavailable(.photoLibrary)) {
            try MediaPickerConfiguration(source: .photoLibrary, mediaTypes: [.photo, .video]).validate(against: none)
        }
        #expect(throws: CaptureError.maxDurationNotPositive) {
            try MediaPickerConfiguration(source: .camera, mediaTypes: [.video], maxDuration: .zero).validate(against: virtual)
        }
        try MediaPickerConfiguration(source: .camera, mediaTypes: [.photo, .video], maxDuration: MediaTime(seconds: 30))
            .validate(against: virtual)
        #expect(virtual.availableMediaTypes(for: .camera) == [.photo, .video])
        #expect(none.availableMediaTypes(for: .savedPhotos).isEmpty)
    }

    @Test("each source says what it can really give: cameras that open, the library's kinds, Captures' kinds")
    func truthfulSources() throws {
        let denied = CaptureDevice(id: "/dev/video9", name: "video9", position: .unspecified, sizes: [], frameRates: [],
                                   hasFlash: false, unavailableReason: "permission denied: add your user to the video group")
        #expect(MediaSources.mediaTypes(of: denied).isEmpty)
        #expect(MediaSources.mediaTypes(of: .virtual) == [.photo, .video])
        let onlyDenied = MediaSources(library: nil, cameras: [denied])
        #expect(!onlyDenied.isAvailable(.camera), "a camera that cannot be opened is no source")
        #expect(throws: CaptureError.sourceUnavailable(.camera)) {
            try MediaPickerConfiguration(source: .camera, mediaTypes: [.photo]).validate(against: onlyDenied)
        }
        let photosOnly = MediaSources(library: LibraryContents(all: [.photo, .video], captures: [.photo]), cameras: [])
        #expect(photosOnly.availableMediaTypes(for: .photoLibrary) == [.photo, .video])
        #expect(photosOnly.availableMediaTypes(for: .savedPhotos) == [.photo], "Captures holds photos only")
        // A picker over Captures that holds no video yet still opens (it shows what there is).
        try MediaPickerConfiguration(source: .savedPhotos, mediaTypes: [.video]).validate(against: photosOnly)
        #expect(throws: CaptureError.sourceUnavailable(.savedPhotos)) {
            try MediaPickerConfiguration(source: .savedPhotos, mediaTypes: [.video])
                .validate(against: MediaSources(library: nil, cameras: []))
        }
        try MediaPickerConfiguration(source: .savedPhotos, mediaTypes: [.photo]).validate(against: photosOnly)
        let empty = MediaSources(library: LibraryContents(all: [], captures: []), cameras: [])
        #expect(empty.isAvailable(.photoLibrary) && empty.availableMediaTypes(for: .photoLibrary).isEmpty)
    }

    @Test("the virtual camera's pictures are real test pictures of its size")
    func pictures() throws {
        let camera = try Camera(device: .virtual, size: PixelSize(width: 320, height: 240))
        let picture = try #require(try camera.readFrame(picture: true).picture)
        #expect(picture.size == PixelSize(width: 320, height: 240))
        let values = Set(stride(from: 0, to: picture.bytes.count, by: 97).map { picture.bytes[$0] })
        #expect(values.count > 8, "a real test picture, not a flat fill")
        #expect(try camera.readFrame(picture: false).picture == nil, "no conversion unless asked")
        #expect(camera.framesRead == 2)
    }
}
