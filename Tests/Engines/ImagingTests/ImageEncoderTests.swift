import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import Imaging

@Suite("Image encoding")
struct ImageEncoderTests {
    static let picture = FrameIndexPattern.render(index: 321, size: PixelSize(width: 97, height: 55))

    /// Decodes with the ffmpeg CLI, an independent decoder.
    func decode(_ url: URL, size: PixelSize) throws -> PixelBuffer? {
        let raw = try Subprocess.run("ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        return PixelBuffer(width: size.width, height: size.height, bytes: [UInt8](raw.stdoutData))
    }

    @Test("PNG is lossless")
    func png() throws {
        let url = TestPaths.scratchFolder("png").appendingPathComponent("p.png")
        try ImageEncoder.write(Self.picture, to: url)
        #expect(try decode(url, size: Self.picture.size) == Self.picture)
    }

    @Test("JPEG and WebP keep the picture (lossy, within a small error)", arguments: ["jpg", "webp"])
    func lossy(_ ext: String) throws {
        let url = TestPaths.scratchFolder(ext).appendingPathComponent("p.\(ext)")
        try ImageEncoder.write(Self.picture, to: url, quality: 95)
        let decoded = try #require(try decode(url, size: Self.picture.size))
        #expect(FrameIndexPattern.readIndex(from: decoded) == 321)
        let error = zip(decoded.bytes, Self.picture.bytes).map { abs(Int($0) - Int($1)) }.reduce(0, +)
        #expect(Double(error) / Double(decoded.bytes.count) < 6, "mean error \(Double(error) / Double(decoded.bytes.count))")
    }

    @Test("JPEG composites alpha over white, for RGBA and grey with alpha alike", arguments: [2, 4])
    func jpegFlattens(_ channels: Int) throws {
        // 16×16 blocks: opaque black, transparent black, opaque grey 100 at half alpha (128).
        let side = 16, blocks = 3
        var bytes: [UInt8] = []
        for _ in 0..<side {
            for x in 0..<(side * blocks) {
                let (value, alpha): (UInt8, UInt8) = [(0, 255), (0, 0), (100, 128)][x / side]
                bytes += Array(repeating: value, count: channels - 1) + [alpha]
            }
        }
        let picture = try #require(RasterImage(width: side * blocks, height: side, channels: channels, bytes: bytes))
        let url = TestPaths.scratchFolder("flatten").appendingPathComponent("f.jpg")
        try ImageEncoder.write(picture, to: url, quality: 100)
        let decoded = try #require(try decode(url, size: PixelSize(width: side * blocks, height: side)))
        // The centre pixel of each block, every channel: black, white, and 100·a + 255·(1−a).
        for (block, expected) in [(0, 0), (1, 255), (2, 177)] {
            let index = ((side / 2) * side * blocks + block * side + side / 2) * 3
            for channel in 0..<3 {
                #expect(abs(Int(decoded.bytes[index + channel]) - expected) <= 2, "block \(block) channel \(channel): \(decoded.bytes[index + channel])")
            }
        }
    }

    @Test("unknown extensions and empty pictures are refused; nothing is written")
    func refusals() throws {
        let folder = TestPaths.scratchFolder("refuse")
        #expect(throws: ImagingError.unsupportedFormat(path: folder.appendingPathComponent("x.gif").path)) {
            try ImageEncoder.write(Self.picture, to: folder.appendingPathComponent("x.gif"))
        }
        #expect(throws: ImagingError.self) { try ImageEncoder.encode(PixelBuffer(width: 0, height: 0), as: .png) }
        #expect(throws: ImagingError.self) {
            try ImageEncoder.write(Self.picture, to: URL(fileURLWithPath: "/nonexistent-folder/x.png"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("contact sheets lay frames side by side")
    func contactSheet() {
        let a = PixelBuffer(width: 2, height: 2, fill: RGB(255, 0, 0))
        let b = PixelBuffer(width: 3, height: 1, fill: RGB(0, 0, 255))
        let sheet = ContactSheet.row([a, b], gap: 1, background: RGB(9, 9, 9))
        #expect(sheet.size == PixelSize(width: 6, height: 2))
        #expect(sheet[1, 1] == RGB(255, 0, 0))
        #expect(sheet[2, 0] == RGB(9, 9, 9))
        #expect(sheet[5, 0] == RGB(0, 0, 255))
        #expect(sheet[5, 1] == RGB(9, 9, 9))
    }
}

@Suite("Image headers")
struct ImageInfoTests {
    @Test("EXIF orientations 1...8 are read from the header", arguments: 1...8)
    func orientation(_ value: Int) throws {
        let url = TestPaths.media.appendingPathComponent("exif_orientation/Landscape_\(value).jpg")
        let info = try #require(try ImageInfo.probe(url))
        #expect(info.format == "jpeg")
        #expect(info.orientation == value)
        #expect(info.displaySize == PixelSize(width: 1800, height: 1200))
    }

    @Test("a huge PNG header is read without decoding its pixels")
    func hugeHeader() throws {
        let info = try #require(try ImageInfo.probe(TestPaths.media.appendingPathComponent("images/huge_dims_65536x65536_1bit.png")))
        #expect(info.storedSize == PixelSize(width: 65536, height: 65536))
    }

    @Test("videos and text are not images")
    func notImages() throws {
        let folder = TestPaths.scratchFolder("not-image")
        let text = folder.appendingPathComponent("a.txt")
        try Data("hello".utf8).write(to: text)
        #expect(try ImageInfo.probe(text) == nil)
        #expect(try ImageInfo.probe(TestPaths.media.appendingPathComponent("video_features/mkv_h264_ac3_bframes.mkv")) == nil)
    }
}
