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

    @Test("the virtual camera takes a photo of its size")
    func photo() throws {
        let camera = try Camera(device: .virtual, size: PixelSize(width: 320, height: 240))
        let picture = try camera.takePhoto()
        #expect(picture.size == PixelSize(width: 320, height: 240))
        let values = Set(stride(from: 0, to: picture.bytes.count, by: 97).map { picture.bytes[$0] })
        #expect(values.count > 8, "a real test picture, not a flat fill")
        let out = TestPaths.scratchFolder("capture").appendingPathComponent("p.jpg")
        let taken = Date(timeIntervalSince1970: 1_700_000_000)
        try ImageEncoder.writePhoto(picture, to: out, takenAt: taken)
        let info = try #require(try ImageInfo.probe(out))
        #expect(info.creationDate == taken)
    }

    @Test("recording stops at the maximum duration and leaves a playable MP4")
    func record() throws {
        let camera = try Camera(device: .virtual, size: PixelSize(width: 320, height: 240))
        let out = TestPaths.scratchFolder("record").appendingPathComponent("v.mp4")
        let result = try camera.record(to: out, quality: .low, maxDuration: MediaTime(value: 1, timescale: 2))
        #expect(result.frameCount == 15)
        let reader = try FrameReader(url: out)
        #expect(reader.duration <= MediaTime(value: 1, timescale: 2))
        #expect(reader.video.codedSize == PixelSize(width: 320, height: 240))
        _ = try reader.frame(at: .frame(14))
    }

    @Test("cancelling a recording (Ctrl-C) keeps a playable file")
    func cancelKeeps() throws {
        let camera = try Camera(device: .virtual, size: PixelSize(width: 160, height: 120))
        let out = TestPaths.scratchFolder("record-cancel").appendingPathComponent("v.mp4")
        let progress = Progress(totalUnitCount: 1)
        let stopper = Thread { Thread.sleep(forTimeInterval: 0.4); progress.cancel() }
        stopper.start()
        let result = try camera.record(to: out, quality: .low, maxDuration: nil, progress: progress)
        #expect(result.frameCount > 3)
        #expect(try FrameReader(url: out).info.video != nil)
    }
}
