import Foundation
import Imaging
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import AvatarCrop

@Suite("Crop session")
@MainActor
struct CropSessionTests {
    static let photoURL = TestPaths.media.appendingPathComponent("exif_orientation/Landscape_6.jpg")

    func loaded() async throws -> CropSession {
        let session = CropSession(viewportSize: Size(width: 400, height: 300), shape: .circle, inset: 10)
        try await session.load(Self.photoURL)
        return session
    }

    @Test("loading sets up the geometry for the upright photo and a preview near screen size")
    func loading() async throws {
        let session = try await loaded()
        let geometry = try #require(session.geometry)
        #expect(geometry.imageSize == Size(width: 1800, height: 1200))
        #expect(session.cropFrame == Rect(x: 60, y: 10, width: 280, height: 280))
        #expect(geometry.minimumZoom == 280.0 / 1200.0)
        #expect(session.state == geometry.initialState)
        let preview = try #require(session.preview)
        #expect(preview.size == PixelSize(width: 800, height: 533))
    }

    @Test("a resize lays the crop frame out in the new viewport and keeps the part of the photo under it; without keeping, it opens afresh")
    func resize() async throws {
        let session = try await loaded()
        session.pan(by: Point(x: 40, y: -25))
        session.zoom(by: 1.5, at: Point(x: 200, y: 150))
        let before = try #require(session.spec()).rect
        session.resize(to: Size(width: 900, height: 600))
        #expect(session.viewportSize == Size(width: 900, height: 600))
        // The frame is the largest circle 10 points inside the new viewport.
        #expect(session.cropFrame == Rect(x: 160, y: 10, width: 580, height: 580))
        let kept = try #require(session.spec()).rect
        for (a, b) in [(kept.minX, before.minX), (kept.minY, before.minY), (kept.width, before.width), (kept.height, before.height)] {
            #expect(abs(a - b) < 1e-9, "\(kept) vs \(before)")
        }
        session.resize(to: Size(width: 300, height: 300), keepingCrop: false)
        let geometry = try #require(session.geometry)
        #expect(geometry.viewportSize == Size(width: 300, height: 300))
        #expect(session.state == geometry.initialState)
        // A size that is not one is ignored.
        session.resize(to: Size(width: 0, height: .nan))
        #expect(session.viewportSize == Size(width: 300, height: 300))
    }

    @Test("panning and zooming never uncover the crop; reset returns to the start")
    func gestures() async throws {
        let session = try await loaded()
        let geometry = try #require(session.geometry)
        let image = Rect(x: 0, y: 0, width: 1800, height: 1200)
        for step in 0..<200 {
            switch step % 4 {
            case 0: session.pan(by: Point(x: Double(step * 7 % 300) - 150, y: Double(step * 13 % 200) - 100))
            case 1: session.zoom(by: step % 8 == 1 ? 1.7 : 0.6, at: Point(x: Double(step % 400), y: Double(step * 3 % 300)))
            case 2: session.pan(by: Point(x: 5000, y: -5000))
            default: session.zoom(by: 10, at: Point(x: 200, y: 150))
            }
            let crop = geometry.cropRect(session.state)
            #expect(crop.minX >= -1e-6 && crop.minY >= -1e-6 && crop.maxX <= image.maxX + 1e-6 && crop.maxY <= image.maxY + 1e-6,
                    "step \(step): \(crop)")
            #expect(session.state.zoom >= geometry.minimumZoom - 1e-12 && session.state.zoom <= geometry.maximumZoom + 1e-12)
        }
        session.reset()
        #expect(session.state == geometry.initialState)
    }

    @Test("a screen reader hears the zoom as a percentage of the least that covers the crop, and which part of the photo the crop shows, from the geometry's own rectangles")
    func readout() async throws {
        #expect(CropSession(viewportSize: Size(width: 400, height: 300)).readout == nil, "nothing before a photo is open")
        let session = try await loaded()
        let geometry = try #require(session.geometry)
        func expected() -> String {
            let crop = geometry.cropRect(session.state), image = geometry.imageSize
            let share = { (part: Double, whole: Double) in Int((part / whole * 100).rounded()) }
            return "Zoom \(Int((session.state.zoom / geometry.minimumZoom(at: session.state.rotation) * 100).rounded())) %: the crop shows "
                + "\(share(crop.width, image.width)) % of the photo's width, centred \(share(crop.midX, image.width)) % across and "
                + "\(share(crop.midY, image.height)) % down"
        }
        session.zoom(by: 1 / 1000, at: Point(x: 200, y: 150))
        var readout = try #require(session.readout)
        #expect(readout.zoomPercent == 100, "zoomed out as far as it goes")
        #expect(readout.zoomRange.lowerBound == 100 && readout.zoomRange.upperBound > 100)
        #expect(readout.text == expected())
        session.zoom(by: 1.5, at: Point(x: 200, y: 150))
        session.pan(by: Point(x: 40, y: 0))
        readout = try #require(session.readout)
        #expect(readout.zoomPercent == 150)
        #expect(readout.text == expected())
        session.rotate(by: -0.5)
        #expect(try #require(session.readout).text.hasSuffix(", turned 0.5° anticlockwise"))
    }

    @Test("Done gives the same avatar as replaying the spec on the original")
    func completing() async throws {
        let session = try await loaded()
        session.zoom(by: 2, at: Point(x: 150, y: 100))
        session.pan(by: Point(x: -30, y: 12))
        let spec = try #require(session.spec(side: 200))
        #expect(spec.outputSize == PixelSize(width: 200, height: 200))
        let avatar = try await session.complete(side: 200)
        let replayed = try AvatarMaker.render(try Photo(url: Self.photoURL), try CropSpec.parse(Data(spec.json().utf8)))
        #expect(avatar == replayed)
        #expect(avatar.channels == 4)
        let small = try #require(try await session.previewAvatar(side: 64))
        #expect(small.size == PixelSize(width: 64, height: 64))
        #expect(meanDifference(small, try await session.previewAvatar(side: 64) ?? small) == 0)
    }

    @Test("a spec for another photo is refused")
    func wrongPhoto() throws {
        let photo = try Photo(url: Self.photoURL)
        let spec = CropSpec(imageSize: PixelSize(width: 100, height: 100), rect: Rect(x: 0, y: 0, width: 100, height: 100),
                            shape: .circle, outputSize: PixelSize(width: 32, height: 32))
        #expect(throws: ImagingError.self) { try AvatarMaker.render(photo, spec) }
    }

    @Test("loading something that is not a photo fails cleanly")
    func notAPhoto() async throws {
        let session = CropSession(viewportSize: Size(width: 300, height: 300))
        let url = TestPaths.media.appendingPathComponent("video_features/mkv_h264_ac3_bframes.mkv")
        await #expect(throws: ImagingError.notAnImage(path: url.path)) { try await session.load(url) }
        #expect(session.geometry == nil)
        #expect(session.spec() == nil)
    }
}
