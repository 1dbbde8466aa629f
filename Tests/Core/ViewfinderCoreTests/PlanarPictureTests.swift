import Foundation
import Testing
import ViewfinderCore
import ViewfinderTestSupport

@Suite("PlanarPicture (RGB to BT.709 4:2:0)")
struct PlanarPictureTests {
    @Test("primaries, white and black land on BT.709's video-range values", arguments: [
        (RGB(255, 0, 0), 63, 102, 240), (RGB(0, 255, 0), 173, 42, 26), (RGB(0, 0, 255), 32, 240, 118),
        (RGB(255, 255, 255), 235, 128, 128), (RGB(0, 0, 0), 16, 128, 128),
    ])
    func primaries(_ colour: RGB, _ y: Int, _ cb: Int, _ cr: Int) {
        let picture = PlanarPicture(PixelBuffer(width: 4, height: 2, fill: colour))
        #expect(picture.luma == [UInt8](repeating: UInt8(y), count: 8))
        #expect(picture.cb == [UInt8](repeating: UInt8(cb), count: 2) && picture.cr == [UInt8](repeating: UInt8(cr), count: 2))
    }

    @Test("chroma is the mean of each 2×2 block; odd sizes repeat the last row and column")
    func blocks() throws {
        // Left column red, right column blue, 3×3: the first block averages red and blue.
        var bytes: [UInt8] = []
        for _ in 0..<3 { bytes += [255, 0, 0, 0, 0, 255, 0, 0, 255] }
        let picture = PlanarPicture(try #require(PixelBuffer(width: 3, height: 3, bytes: bytes)))
        #expect(picture.chromaWidth == 2 && picture.chromaHeight == 2 && picture.cb.count == 4)
        let mixed = PlanarPicture(PixelBuffer(width: 2, height: 2, fill: RGB(128, 0, 128)))
        #expect(abs(Int(picture.cb[0]) - Int(mixed.cb[0])) <= 1 && abs(Int(picture.cr[0]) - Int(mixed.cr[0])) <= 1)
        let blue = PlanarPicture(PixelBuffer(width: 2, height: 2, fill: RGB(0, 0, 255)))
        #expect(picture.cb[1] == blue.cb[0] && picture.cr[3] == blue.cr[0])
    }

    @Test("a smooth picture agrees with FFmpeg's scaler (BT.709, video range) within one level")
    func matchesFFmpeg() throws {
        let (width, height) = (64, 32)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = 3 * (y * width + x)
                bytes[i] = UInt8(x * 4); bytes[i + 1] = UInt8(y * 8); bytes[i + 2] = UInt8(255 - x * 2 - y * 2)
            }
        }
        let picture = PlanarPicture(try #require(PixelBuffer(width: width, height: height, bytes: bytes)))
        let folder = TestPaths.scratchFolder("planar")
        let input = folder.appendingPathComponent("in.rgb")
        try Data(bytes).write(to: input)
        let result = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
                                                   "-i", input.path, "-vf", "scale=out_color_matrix=bt709:out_range=tv:flags=bilinear+accurate_rnd",
                                                   "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"])
        let oracle = [UInt8](result.stdoutData)
        try #require(oracle.count == width * height * 3 / 2, "\(result.stderr)")
        let ours = picture.luma + picture.cb + picture.cr
        let worst = zip(ours, oracle).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "largest difference \(worst)")
    }

    @Test("runs of one colour, converted once, give the bytes of each pixel and block converted alone")
    func runsConvertAlike() throws {
        // 10×6 in runs of a few colours, with the traps of the kept values: a block of a colour
        // one bit away from the first pixel's, after a first block that is not of one colour.
        let (width, height) = (10, 6)
        let colours = [RGB(10, 20, 30), RGB(10, 20, 31), RGB(200, 40, 90), RGB(0, 0, 0)]
        var grid = [[Int]](repeating: [Int](repeating: 2, count: width), count: height)
        grid[0][0] = 0
        for y in 0..<2 { for x in 2..<4 { grid[y][x] = 1 } }
        for y in 2..<6 { for x in 0..<10 where (x / 3 + y) % 2 == 0 { grid[y][x] = 3 } }
        grid[5][9] = 1
        var bytes: [UInt8] = []
        for row in grid { for c in row { bytes += [colours[c].r, colours[c].g, colours[c].b] } }
        let picture = PlanarPicture(try #require(PixelBuffer(width: width, height: height, bytes: bytes)))
        for y in 0..<height {
            for x in 0..<width {
                let alone = PlanarPicture(PixelBuffer(width: 1, height: 1, fill: colours[grid[y][x]]))
                #expect(picture.luma[y * width + x] == alone.luma[0], "Y′ at \(x), \(y)")
            }
        }
        for cy in 0..<picture.chromaHeight {
            for cx in 0..<picture.chromaWidth {
                var block: [UInt8] = []
                for (dy, dx) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
                    let c = colours[grid[2 * cy + dy][2 * cx + dx]]
                    block += [c.r, c.g, c.b]
                }
                let alone = PlanarPicture(try #require(PixelBuffer(width: 2, height: 2, bytes: block)))
                #expect(picture.cb[cy * picture.chromaWidth + cx] == alone.cb[0], "Cb at \(cx), \(cy)")
                #expect(picture.cr[cy * picture.chromaWidth + cx] == alone.cr[0], "Cr at \(cx), \(cy)")
            }
        }
    }
}
