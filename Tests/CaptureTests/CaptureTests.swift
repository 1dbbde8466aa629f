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
        let none = MediaSources(libraryFolder: nil, cameras: [])
        let virtual = MediaSources(libraryFolder: TestPaths.scratchFolder("lib"), allowVirtualCamera: true, cameras: [])
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
